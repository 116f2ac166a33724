"""Both screen-reader stacks for the Python client's Orca tests (issue 39): Debian 12's Orca 43 on at-spi2-core 2.46
and Orca 48.1 on at-spi2-core / libatspi 2.56 (Tools/install-orca48.sh), whatever ``--axserver-orca`` says."""
import pytest

from axclient import orca_stack

#: The stacks, as ``--axserver-orca`` and the marker's ``orca=`` name them.
STACKS = ("43", "48")
#: Each Orca's role words where they differ (D-SPEECH-3), by ``screen_reader.version``.
ROLE_WORDS = orca_stack.ROLE_WORDS


def on_both_orcas(**options):
    """Parametrises a test by ``stack`` ("43", "48"); the ``axserver`` marker (with ``options``, e.g. ``demo=False``)
    starts the ``screen_reader`` fixture on that stack. Module scope: pytest runs one stack's tests together (one
    reader session per stack, not a restart per test). The test's own ``axserver`` marker must not be set besides
    (the closest marker wins): pass its options here."""
    return pytest.mark.parametrize("stack", [
        pytest.param(stack, id="orca" + stack, marks=pytest.mark.axserver(orca=stack, **options))
        for stack in STACKS], scope="module")
