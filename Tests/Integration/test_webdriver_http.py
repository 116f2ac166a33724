"""axdriver's HTTP layer attacked over real sockets (issue 30 items 1, 2, 3, 9): a hostile Host, malformed requests,
slowloris connections at the connection limit, and an unauthenticated non-loopback listener.

Each test starts its own `axdriver --port 0` (READY line) against an axserver address that does not exist: the HTTP
layer, the trust check and /status need no server. AXDRIVER_BIN (a folder) picks another build, e.g. an old one to
see these tests fail on it.
"""
import os
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import unittest

from harness import BIN

AXDRIVER = os.path.join(os.environ.get("AXDRIVER_BIN") or BIN, "axdriver")


class Driver:
    """A running axdriver on a free loopback port."""

    def __init__(self, *args):
        self.process = subprocess.Popen(
            [AXDRIVER, "--port", "0", "--socket", "/nonexistent/axdriver-test/ax.sock", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        line = self.process.stdout.readline().decode()
        if not line.startswith("READY port="):
            self.stop()
            raise RuntimeError("axdriver did not start: %r" % line)
        self.port = int(line.split()[1].split("=")[1])

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process.stdout.close()
        self.process.stderr.close()


def exchange(port, data, timeout=5.0):
    """Sends `data` on a new connection; returns (bytes received, whether the server closed, seconds taken)."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        received = b""
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    return received, True, time.monotonic() - started
                received += chunk
        except (socket.timeout, TimeoutError):
            return received, False, time.monotonic() - started
        except ConnectionResetError:
            return received, True, time.monotonic() - started


def status_once(port):
    """Milliseconds for GET /status on a new connection (None when refused or not answered)."""
    started = time.monotonic()
    try:
        data, _closed, _ = exchange(port, b"GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 5)
    except OSError:
        return None
    if not data.startswith(b"HTTP/1.1 200"):
        return None
    return (time.monotonic() - started) * 1000


class HTTPLayer(unittest.TestCase):
    def setUp(self):
        self.driver = Driver()

    def tearDown(self):
        self.driver.stop()

    def test_non_ascii_digits_in_host_get_400_and_axdriver_lives(self):
        for host in ["1.2.3.\u00bd", "127.0.0.\u0663", "1.2.3.\u00b2"]:
            request = ("GET /status HTTP/1.1\r\nHost: %s\r\n\r\n" % host).encode()
            data, closed, _ = exchange(self.driver.port, request)
            self.assertTrue(data.startswith(b"HTTP/1.1 400"), (host, data[:80]))
            self.assertTrue(closed, host)
            self.assertTrue(self.driver.alive(), "axdriver died on Host %r" % host)
        request = "GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.\u00b2\r\n\r\n".encode()
        data, _closed, _ = exchange(self.driver.port, request, timeout=2)
        self.assertTrue(data.startswith(b"HTTP/1.1 403"), data[:80])
        self.assertTrue(self.driver.alive())
        self.assertIsNotNone(status_once(self.driver.port))

    def test_bracketed_names_are_not_ipv6_literals(self):
        for host in ["[evil.com]", "[::1]evil.com"]:
            data, _closed, _ = exchange(
                self.driver.port, ("GET /status HTTP/1.1\r\nHost: %s\r\n\r\n" % host).encode(), timeout=2)
            self.assertFalse(data.startswith(b"HTTP/1.1 200"), (host, data[:80]))
        data, _closed, _ = exchange(
            self.driver.port, b"GET /status HTTP/1.1\r\nHost: [::1]:4723\r\nConnection: close\r\n\r\n")
        self.assertTrue(data.startswith(b"HTTP/1.1 200"), data[:80])

    def test_malformed_requests_get_one_400_and_a_prompt_close(self):
        host = b"Host: 127.0.0.1\r\n"
        cases = {
            "garbage request line": b"HELLO\r\n\r\n",
            "HTTP/0.9": b"GET /status\r\n\r\n",
            "two Content-Lengths": b"POST /session HTTP/1.1\r\n" + host + b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
            "Content-Length -1": b"POST /session HTTP/1.1\r\n" + host + b"Content-Length: -1\r\n\r\n",
            "Content-Length 2^64": b"POST /session HTTP/1.1\r\n" + host + b"Content-Length: 18446744073709551616\r\n\r\n",
            "NUL in a header": b"GET /status HTTP/1.1\r\n" + host + b"X-A: a\x00b\r\n\r\n",
        }
        for name, request in cases.items():
            data, closed, seconds = exchange(self.driver.port, request, timeout=5)
            self.assertTrue(data.startswith(b"HTTP/1.1 400"), (name, data[:80]))
            self.assertEqual(data.count(b"HTTP/1.1 "), 1, (name, data))
            self.assertTrue(closed, "%s: not closed after the 400" % name)
            self.assertLess(seconds, 2, name)
        self.assertTrue(self.driver.alive())

    def test_a_trickled_request_head_is_cut_off_at_its_deadline(self):
        self.driver.stop()
        self.driver = Driver("--header-timeout-s", "2")
        started = time.monotonic()
        with socket.create_connection(("127.0.0.1", self.driver.port), timeout=10) as sock:
            closed_after = None
            for byte in b"GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 40:
                try:
                    sock.sendall(bytes([byte]))
                except OSError:
                    closed_after = time.monotonic() - started
                    break
                time.sleep(0.2)  # the trickle itself: one byte per 200 ms, each byte resets an idle timer
                sock.setblocking(False)
                try:
                    data = sock.recv(4096)
                except BlockingIOError:
                    data = None
                sock.setblocking(True)
                if data is not None:
                    closed_after = time.monotonic() - started
                    self.assertTrue(data == b"" or data.startswith(b"HTTP/1.1 408"), data[:80])
                    break
        self.assertIsNotNone(closed_after, "a trickled head was never cut off")
        self.assertLess(closed_after, 4)


class Slowloris(unittest.TestCase):
    CONNECTIONS = 64

    def test_status_stays_fast_under_64_slowloris_connections_at_the_limit(self):
        driver = Driver("--max-connections", str(self.CONNECTIONS))
        stop = threading.Event()
        attackers = []

        def attack():
            sock = None
            while not stop.is_set():
                try:
                    if sock is None:
                        sock = socket.create_connection(("127.0.0.1", driver.port), timeout=2)
                        sock.sendall(b"GET /status HTTP/1.1\r\n")
                    sock.sendall(b"X")  # one header byte per 100 ms, never a whole head
                except OSError:
                    if sock is not None:
                        sock.close()
                    sock = None
                stop.wait(0.1)
            if sock is not None:
                sock.close()

        try:
            for _ in range(self.CONNECTIONS):
                thread = threading.Thread(target=attack, daemon=True)
                thread.start()
                attackers.append(thread)
            time.sleep(1.5)
            times = [status_once(driver.port) for _ in range(200)]
        finally:
            stop.set()
            for thread in attackers:
                thread.join(5)
        driver.stop()
        answered = sorted(t for t in times if t is not None)
        self.assertEqual(len(answered), len(times), "%d of %d /status requests refused" %
                         (len(times) - len(answered), len(times)))
        p99 = answered[int(len(answered) * 0.99) - 1]
        print("slowloris: /status p50 %.1f ms, p99 %.1f ms over %d requests, %d attackers"
              % (statistics.median(answered), p99, len(answered), self.CONNECTIONS))
        self.assertLess(p99, 250, "p99 %.1f ms (goal 50 ms on an idle machine)" % p99)


class NonLoopback(unittest.TestCase):
    def test_non_loopback_without_a_token_is_refused(self):
        try:
            result = subprocess.run(
                [AXDRIVER, "--port", "0", "--host", "0.0.0.0", "--allow-non-loopback", "--socket",
                 "/nonexistent/ax.sock"], capture_output=True, timeout=20)
        except subprocess.TimeoutExpired:
            self.fail("axdriver started listening on 0.0.0.0 without a token")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn(b"--auth-token-file", result.stderr)
        self.assertNotIn(b"READY", result.stdout)

    def test_non_loopback_with_a_token_starts(self):
        folder = tempfile.mkdtemp(prefix="axdriver-")
        token = os.path.join(folder, "token")
        with open(token, "w") as handle:
            handle.write("s3cret\n")
        os.chmod(token, 0o600)
        process = subprocess.Popen(
            [AXDRIVER, "--port", "0", "--host", "0.0.0.0", "--allow-non-loopback", "--auth-token-file", token,
             "--socket", "/nonexistent/ax.sock"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            self.assertTrue(process.stdout.readline().startswith(b"READY port="))
        finally:
            process.terminate()
            process.wait(10)
            process.stdout.close()
            process.stderr.close()
            os.remove(token)
            os.rmdir(folder)


if __name__ == "__main__":
    unittest.main()
