"""Reading newline-delimited JSON-RPC replies from a socket in linear time (shared by the bench scripts).

A reply can be tens of megabytes (`tree.get` of 100,000 elements is ~40 MB): appending chunks to a `bytes` object and
searching the whole buffer for the newline after every chunk is quadratic in the reply's size. Here chunks go into
one `bytearray` (amortised O(1) per byte) and only the bytes that just arrived are searched.
"""


class LineReader:
    """Reads `\\n`-terminated lines from a connected socket."""

    def __init__(self, sock, chunk_size=1 << 20):
        self.sock = sock
        self.chunk_size = chunk_size
        self.buffer = bytearray()

    def read_line(self):
        """The next line, without its newline; RuntimeError when the peer closes first."""
        end = self.buffer.find(b"\n")
        while end < 0:
            chunk = self.sock.recv(self.chunk_size)
            if not chunk:
                raise RuntimeError("the server closed the connection")
            start = len(self.buffer)
            self.buffer += chunk
            end = self.buffer.find(b"\n", start)
        line = bytes(self.buffer[:end])
        del self.buffer[:end + 1]
        return line
