"""``python3 -m axclient.listen``: a private stack, a server and Orca; press keys and print what Orca said
(``axquery listen`` runs this; see :func:`axclient.screen_reader.main`)."""
from .screen_reader import main

if __name__ == "__main__":
    raise SystemExit(main())
