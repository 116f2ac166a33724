"""The pytest plugin itself: shared and fresh servers, markers, the AT-SPI option, and cleanup by PID."""
import os
import textwrap

import pytest

import axclient

PACKAGE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "PythonClient"))


def pid_alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_default_server_is_the_demo(axserver, ax):
    assert axserver.running()
    assert "apps=axserver-demo" in axserver.ready_line
    assert "atspi=off" in axserver.ready_line
    assert os.stat(os.path.dirname(axserver.socket)).st_mode & 0o077 == 0
    assert ax.get_by_id("cell.wifi").count() == 1


@pytest.mark.axserver(demo=False)
def test_marker_without_demo(axserver, ax):
    assert ax.apps() == []
    assert "--demo" not in axserver.command


@pytest.mark.axserver(atspi=True, fresh=True)
def test_private_atspi_stack(axserver, ax):
    assert axserver.stack is not None and os.path.isdir(axserver.stack.dir)
    bus = axserver.stack.exports["AT_SPI_BUS_ADDRESS"]
    assert "atspi=bus=%s" % bus in axserver.ready_line       # the server joined the private bus
    assert "atspi=off" not in axserver.ready_line
    assert ax.get_by_id("cell.wifi").role() == "switch"


def test_plugin_in_a_user_project(pytester):
    """A user's test file with the fixtures; afterwards the server it started is gone."""
    pytester.makepyfile(test_user=textwrap.dedent('''
        import pytest
        from axclient import expect

        def test_toggle(ax, axserver):
            with open("server.pid", "w") as handle:
                handle.write(str(axserver.pid))
            wifi = ax.get_by_role("switch", name="Wi-Fi")
            before = wifi.value()
            wifi.click()
            expect(wifi).not_.to_have_value(before)

        @pytest.mark.axserver(fresh=True)
        def test_fresh(ax):
            assert ax.get_by_id("cell.wifi").value() == "on"

        def test_provider(ax_provider):
            from axclient import view
            provider = ax_provider("user-app", [view("w", "UIWindow", [0, 0, 100, 100],
                                   children=[view("b", "UIButton", [0, 0, 50, 20], title="Go")])])
            assert provider.client.get_by_role("button", name="Go").count() == 1
    '''))
    env_path = os.pathsep.join([PACKAGE_DIR] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    pytester._monkeypatch.setenv("PYTHONPATH", env_path)
    result = pytester.runpytest_subprocess("-p", "axclient.pytest_plugin", "-p", "no:cacheprovider", timeout=120)
    result.assert_outcomes(passed=3)
    pid = int((pytester.path / "server.pid").read_text())
    assert not pid_alive(pid)


def run_user_tests(pytester, source):
    pytester.makepyfile(test_user=textwrap.dedent(source))
    env_path = os.pathsep.join([PACKAGE_DIR] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    pytester._monkeypatch.setenv("PYTHONPATH", env_path)
    return pytester.runpytest_subprocess("-p", "axclient.pytest_plugin", "-p", "no:cacheprovider", timeout=120)


ISOLATION_TESTS = '''
    import pytest
    from axclient import expect

    pytestmark = pytest.mark.axserver(%s)

    def test_turns_wifi_off(ax):
        wifi = ax.get_by_role("switch", name="Wi-Fi")
        wifi.click()
        expect(wifi).to_have_value("off")

    def test_finds_wifi_as_the_app_starts(ax):
        expect(ax.get_by_role("switch", name="Wi-Fi")).to_have_value("on", timeout=1)
'''


def test_each_test_starts_from_the_apps_initial_state(pytester):
    """Issue 38 item 1: by default the second test does not see what the first one did to the app."""
    run_user_tests(pytester, ISOLATION_TESTS % "").assert_outcomes(passed=2)


def test_sharing_is_an_explicit_opt_in(pytester):
    """``shared=True``: one server for both tests, so the second sees Wi-Fi off (and fails, as the author chose)."""
    result = run_user_tests(pytester, ISOLATION_TESTS % "shared=True")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*test_finds_wifi_as_the_app_starts*"])


def test_contradicting_marker_options_are_a_usage_error(pytester):
    result = run_user_tests(pytester, ISOLATION_TESTS % "shared=True, fresh=True")
    result.stdout.fnmatch_lines(["*shared=True and fresh=True contradict*"])


def test_pytest_xdist_workers_each_start_their_own_servers(pytester):
    """Issue 38 item 5: `pytest -n 2` (pytest-xdist): each worker is a pytest session with its own pool, so the
    shared servers of one worker are never another's, and no two tests run on one socket across workers."""
    pytest.importorskip("xdist")
    pytester.makepyfile(test_workers=textwrap.dedent('''
        import os
        import pytest

        @pytest.mark.parametrize("n", range(6))
        @pytest.mark.axserver(shared=True)
        def test_record(n, axserver, ax):
            worker = os.environ.get("PYTEST_XDIST_WORKER", "none")
            with open("servers.txt", "a") as handle:
                handle.write("%s %d %s\\n" % (worker, axserver.pid, axserver.socket))
            assert ax.get_by_id("cell.wifi").count() == 1
    '''))
    env_path = os.pathsep.join([PACKAGE_DIR] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    pytester._monkeypatch.setenv("PYTHONPATH", env_path)
    result = pytester.runpytest_subprocess("-p", "axclient.pytest_plugin", "-p", "no:cacheprovider", "-n", "2",
                                           timeout=180)
    result.assert_outcomes(passed=6)
    rows = [line.split() for line in (pytester.path / "servers.txt").read_text().splitlines()]
    by_worker = {}
    for worker, pid, socket_path in rows:
        by_worker.setdefault(worker, set()).add((pid, socket_path))
    assert set(by_worker) == {"gw0", "gw1"}, by_worker
    assert all(len(servers) == 1 for servers in by_worker.values()), by_worker   # shared within a worker
    assert by_worker["gw0"].isdisjoint(by_worker["gw1"]), by_worker               # never across workers
    for servers in by_worker.values():
        for pid, _socket in servers:
            assert not pid_alive(int(pid))


def test_help_lists_the_options(pytester):
    pytester._monkeypatch.setenv("PYTHONPATH", PACKAGE_DIR)
    result = pytester.runpytest_subprocess("-p", "axclient.pytest_plugin", "--help", timeout=60)
    result.stdout.fnmatch_lines(["*--axserver-bin*", "*--axserver-atspi*"])


def test_server_process_reports_a_failed_start():
    try:
        server = axclient.ServerProcess(args=["--action-timeout-ms", "not-a-number"])
    except axclient.ServerStartError as error:
        assert "exited with status 64 before printing READY" in str(error)
        assert "not-a-number" in str(error)
    else:
        server.stop()
        pytest.fail("a server with a bad option started")
