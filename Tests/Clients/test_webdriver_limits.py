"""axdriver's session limits with a real axserver (issue 30 item 4): deleting a session ends its pending finds and
implicit waits at once, and absurd timeouts are refused at New Session."""
import concurrent.futures
import time

from test_webdriver import Driver

SESSIONS = 50
IMPLICIT_MS = 20_000


def test_deleting_sessions_ends_their_pending_finds_at_once(axserver):
    driver = Driver(axserver.socket)
    try:
        sessions = []
        for _ in range(SESSIONS):
            status, body = driver.request("POST", "/session", {"capabilities": {"alwaysMatch": {
                "platformName": "linux", "timeouts": {"implicit": IMPLICIT_MS}}}})
            assert status == 200, body
            sessions.append(body["value"]["sessionId"])
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=2 * SESSIONS)
        finds = []
        for index, session in enumerate(sessions):
            # XPath and class name wait on tree.changed events in axdriver; both must end with the session.
            using, value = ("xpath", "//XCUIElementTypeNever") if index % 2 else ("class name", "XCUIElementTypeNever")
            finds.append(pool.submit(driver.request, "POST", "/session/%s/element" % session,
                                     {"using": using, "value": value}))
        time.sleep(1.0)
        assert not any(find.done() for find in finds), "a find ended before its implicit wait"
        started = time.monotonic()
        deletes = [pool.submit(driver.request, "DELETE", "/session/%s" % session) for session in sessions]
        for delete in deletes:
            status, _body = delete.result(timeout=IMPLICIT_MS / 1000 + 30)
            assert status == 200
        answers = [find.result(timeout=IMPLICIT_MS / 1000 + 30) for find in finds]
        elapsed = time.monotonic() - started
        pool.shutdown()
        print("deleted %d sessions with pending finds in %.2f s" % (SESSIONS, elapsed))
        assert elapsed < 5, "deleting %d sessions took %.1f s (their finds waited out %d ms)" % (
            SESSIONS, elapsed, IMPLICIT_MS)
        for status, body in answers:
            assert status == 404 and body["value"]["error"] == "invalid session id", body
        status, body = driver.request("GET", "/status")
        assert body["value"]["ready"] is True
    finally:
        driver.stop()


def test_absurd_timeouts_are_invalid_arguments_at_new_session(axserver):
    driver = Driver(axserver.socket)
    try:
        for value in (86_400_000, 2 ** 63):
            status, body = driver.request("POST", "/session", {"capabilities": {"alwaysMatch": {
                "platformName": "linux", "timeouts": {"implicit": value}}}})
            assert status == 400 and body["value"]["error"] == "invalid argument", body
            assert body["value"]["data"]["limit"] == "maxTimeoutMs"
        status, body = driver.request("GET", "/sessions")
        assert body["value"] == []
    finally:
        driver.stop()
