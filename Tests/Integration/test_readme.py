"""The docs test: every `sh` block of README.md runs, in order, as one shell session against a demo server.

Conventions (documented at the top of README's "Using it"): a trailing comment `→ exit N` is the expected exit
code (default 0); `→ "text"` (a JSON string) is text the command's output must contain; `keeps running` marks a
command that serves until stopped: it is started in the background, its `→` text awaited (or, without one, it must
still be running after two seconds), and it keeps running, as in a person's shell, until the session ends (then it
is stopped by PID): a later server on the same socket would stop with "another server is already listening", and
the test says so. Nothing in a shell block may name a fixed path under /tmp (two sessions at once would collide,
and the files would stay behind); the README uses a `mktemp -d` folder. `<!-- docs-test: skip (why) -->` before a block leaves
it out. A block right after a line saying "Save this as `NAME`" is written to NAME in the session's directory.

The session runs with the built binaries first on PATH, a private HOME and $XDG_RUNTIME_DIR (so `~/.axtoken`,
`~/.config/axserver` and the default socket are the test's own), and $AXSERVER_SOCKET naming a demo server the
test started.

TCP ports: the README shows the ports a person would type (axdriver's 4723, Appium's default too; 7777 for the
server's TCP listener). The test never listens on those: every `--port N`, `tcp:127.0.0.1:N`, `127.0.0.1:N` and
`port=N`/`tcp=N` in the README is rewritten to a free ephemeral port before the session runs (and the test says
which on stderr), so it passes while Appium, another checkout or a person trying the README holds them. The test
holds 4723 and 7777 itself while the session runs (when it can) to prove it.
"""
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import unittest

from harness import BIN, ROOT, start_server

README = os.path.join(ROOT, "README.md")
SKIP_MARK = re.compile(r"^\s*<!--\s*docs-test:\s*skip\s*\((.+?)\)\s*-->\s*$")
SAVE_AS = re.compile(r"Save this as `([^`/]+)`")
HEREDOC = re.compile(r"<<-?\s*'?\"?(\w+)'?\"?")
EXPECT_TEXT = re.compile(r'→ ("(?:[^"\\]|\\.)*")')
EXPECT_EXIT = re.compile(r"→ exit (\d+)")
# A TCP port in the README: `--port N`, `tcp:127.0.0.1:N`, `127.0.0.1:N`, `localhost:N`, `port=N`, `tcp=N`.
PORT = re.compile(r"(?P<lead>--port[ =]|127\.0\.0\.1:|localhost:|port=|tcp=)(?P<port>\d{2,5})\b")


def free_port():
    """A port the kernel just handed out on loopback (free now; the session's server binds it next)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rewrite_ports(text):
    """(text with every README port replaced by a free one, {readme port: free port}); port 0 stays 0."""
    mapping = {}
    for match in PORT.finditer(text):
        port = int(match.group("port"))
        if port and port not in mapping:
            mapping[port] = free_port()

    def replace(match):
        port = int(match.group("port"))
        return match.group("lead") + str(mapping.get(port, port))
    return PORT.sub(replace, text), mapping


def hold_ports(ports):
    """Listeners on the README's own ports where they are free (as Appium on 4723 would be); closed by the caller."""
    held = []
    for port in ports:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            listener.bind(("127.0.0.1", port))
            listener.listen(1)
            held.append(listener)
        except OSError:
            listener.close()  # someone else holds it already: as good
    return held


def blocks(text):
    """Yields (language, first line number, body lines, save-as name) for each fenced block not marked skip."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"^```(\w*)\s*$", lines[i])
        if not fence:
            i += 1
            continue
        start = i
        body = []
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        before = [line for line in lines[max(0, start - 3):start] if line.strip()]
        if before and SKIP_MARK.match(before[-1]):
            continue
        save = None
        for line in before:
            match = SAVE_AS.search(line)
            if match:
                save = match.group(1)
        yield fence.group(1), start + 1, body, save


def split_comment(line):
    """Splits a shell line into (code, comment) at the first `#` outside quotes that starts a word."""
    quote = None
    for k, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
            elif ch == "\\" and quote == '"':
                continue
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (k == 0 or line[k - 1] in " \t;"):
            return line[:k].rstrip(), line[k + 1:]
    return line, ""


def commands(body, first_line):
    """The commands of a shell block: (line number, code, comment text) with continuations and heredocs joined."""
    out = []
    i = 0
    while i < len(body):
        code, comment = split_comment(body[i])
        number = first_line + 1 + i
        i += 1
        if not code.strip():
            continue
        parts = [code]
        comments = [comment]
        while parts[-1].endswith("\\") and i < len(body):
            code, comment = split_comment(body[i])
            parts.append(code)
            comments.append(comment)
            i += 1
        heredoc = HEREDOC.search(parts[0]) if "<<" in parts[0] else None
        if heredoc:
            end = heredoc.group(1)
            while i < len(body):
                parts.append(body[i])
                i += 1
                if parts[-1].strip() == end:
                    break
        out.append((number, "\n".join(parts), " ".join(comments)))
    return out


class ReadmeTest(unittest.TestCase):
    def test_every_shell_command_in_the_readme(self):
        with open(README, encoding="utf-8") as f:
            text = f.read()
        self.assertIn("4723", text, "the README's axdriver example lost its port; update this test")
        text, mapping = rewrite_ports(text)
        sys.stderr.write("docs test: README ports rewritten to free ones: %s\n"
                         % ", ".join("%d→%d" % pair for pair in sorted(mapping.items())))
        held = hold_ports(sorted(mapping))
        server, sock, tmp = start_server("--demo")
        work = tempfile.mkdtemp(prefix="axdocs-")
        try:
            self.run_session(text, sock, work)
        finally:
            for listener in held:
                listener.close()
            server.stop()
            shutil.rmtree(tmp, ignore_errors=True)
            shutil.rmtree(work, ignore_errors=True)

    def run_session(self, text, sock, work):
        home = os.path.join(work, "home")
        runtime = os.path.join(work, "run")
        results = os.path.join(work, "results")
        for folder in (home, runtime, results):
            os.makedirs(folder, mode=0o700)
        script = ["set -u", "cd %s" % shlex.quote(ROOT), "serving=()",
                  "trap 'for p in \"${serving[@]}\"; do kill -TERM $p 2>/dev/null; wait $p 2>/dev/null; done' EXIT"]
        expectations = []
        ran_blocks = 0
        for language, first_line, body, save in blocks(text):
            if save:
                script.append("cat > %s <<'AXDOCS_EOF'\n%s\nAXDOCS_EOF" % (shlex.quote(save), "\n".join(body)))
                continue
            if language != "sh":
                continue
            ran_blocks += 1
            for number, code, comment in commands(body, first_line):
                index = len(expectations)
                out = os.path.join(results, "%d.out" % index)
                status = os.path.join(results, "%d.rc" % index)
                texts = [json.loads(m) for m in EXPECT_TEXT.findall(comment)]
                exit_match = EXPECT_EXIT.search(comment)
                long_running = "keeps running" in comment
                expectations.append((number, code, texts, int(exit_match.group(1)) if exit_match else 0, long_running,
                                     out, status))
                if long_running:
                    awaited = shlex.quote(texts[0]) if texts else "''"
                    script.append(
                        "{ exec %s\n} > %s 2>&1 &\n" % (code, shlex.quote(out)) +
                        "pid=$!\n"
                        "for _ in $(seq 300); do\n"
                        "  if [ -n %s ] && grep -qF -- %s %s; then break; fi\n" % (awaited, awaited, shlex.quote(out)) +
                        "  if [ -z %s ] && [ \"$_\" -ge 20 ]; then break; fi\n" % awaited +
                        "  kill -0 $pid 2>/dev/null || break\n"
                        "  sleep 0.1\n"
                        "done\n"
                        "if kill -0 $pid 2>/dev/null; then echo running > %s; else echo ended > %s; fi\n"
                        % (shlex.quote(status), shlex.quote(status)) +
                        "serving+=($pid)")
                else:
                    script.append("{ %s\n} > %s 2>&1 < /dev/null\necho $? > %s" % (code, shlex.quote(out), shlex.quote(status)))
        self.assertGreaterEqual(ran_blocks, 3, "README.md has fewer shell blocks than expected")
        ran = [code for _, code, *_ in expectations]
        for essential in ("axserver --demo", "axquery tree"):
            self.assertIn(essential, ran, "the docs test would skip README's \"Using it\" examples")
        env = dict(os.environ)
        env.update(PATH=os.pathsep.join([os.path.abspath(BIN), "/opt/swift/usr/bin", env.get("PATH", "/usr/bin:/bin")]),
                   HOME=home, XDG_RUNTIME_DIR=runtime, AXSERVER_SOCKET=sock, NO_COLOR="1")
        session = subprocess.run(["bash", "-c", "\n".join(script)], env=env, cwd=ROOT, capture_output=True, text=True,
                                 timeout=900)
        failures = []
        for number, code, texts, exit_code, long_running, out, status in expectations:
            output = open(out, errors="replace").read() if os.path.exists(out) else ""
            result = open(status).read().strip() if os.path.exists(status) else "(not run)"
            problem = None
            if long_running:
                if result != "running":
                    problem = "ended instead of running (%s)" % result
            elif result != str(exit_code):
                problem = "exit %s, README promises %d" % (result, exit_code)
            for wanted in texts:
                if problem is None and wanted not in output:
                    problem = "output lacks %r" % wanted
            if problem:
                failures.append("README.md:%d: %s\n  $ %s\n  %s" % (number, problem, code.replace("\n", "\n    "),
                                                                    output[-1500:].replace("\n", "\n  ")))
        if failures:
            self.fail("\n".join(failures) + "\nsession stderr: " + session.stderr[-2000:])


class ReadmePathsTest(unittest.TestCase):
    def test_no_shell_block_names_a_fixed_path_under_tmp(self):
        """Fixed /tmp paths (/tmp/axclient-venv, /tmp/snapshot.json…) collide when two people or two runs follow
        the README at once and stay behind afterwards; the README's shell blocks use a `mktemp -d` folder."""
        with open(README, encoding="utf-8") as f:
            text = f.read()
        found = []
        for language, first_line, body, _save in blocks(text):
            if language != "sh":
                continue
            for offset, line in enumerate(body, 1):
                code, _comment = split_comment(line)
                # (/tmp/axserver-$UID is the default socket's private directory, which the server itself makes)
                if re.search(r"(?<![\w$])/tmp/(?!axserver-)", code):
                    found.append("README.md:%d: %s" % (first_line + offset, line.strip()))
        self.assertEqual(found, [], "fixed /tmp paths in README shell blocks")


def section(text, title):
    """The text of the README section `## title` (up to the next `## `)."""
    start = text.index("\n## " + title + "\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


class ReadmeFactsTest(unittest.TestCase):
    """Issue 38 item 8: the newcomer's traps in the README stay fixed."""

    def setUp(self):
        with open(README, encoding="utf-8") as f:
            self.text = f.read()

    def test_python_commands_use_the_sessions_venv(self):
        """A bare `python3 -m …` is Debian's python (no axclient, no Appium client) and a bare `pip install` is
        refused there (PEP 668): every such command in any code block, skipped or run, names the venv's python."""
        found = []
        for language, first_line, body, _save in blocks(self.text.replace("docs-test: skip", "docs-test: shown")):
            if language != "sh":
                continue
            for offset, line in enumerate(body, 1):
                code, _comment = split_comment(line)
                if re.search(r"(?<![/\w])python3 -m (?!venv)", code) or re.search(r"(?<!-m )\bpip3? install", code):
                    found.append("README.md:%d: %s" % (first_line + offset, line.strip()))
        prose = [line for line in self.text.splitlines()
                 if re.search(r"`pip3? install", line) or re.search(r"`python3 -m (?!venv)", line)]
        self.assertEqual(found + prose, [], "use \"$AXDIR/venv/bin/python\" -m …")

    def test_kiosk_section_shows_the_operator_command(self):
        kiosk = section(self.text, "Kiosk mode")
        self.assertRegex(kiosk, r"axquery [^\n]*policy set [^\n]*allow")
        self.assertIn("--operator-token-file", kiosk)

    def test_fuzzing_section_counts_the_targets_axfuzz_lists(self):
        output = subprocess.run([os.path.join(BIN, "axfuzz"), "--list"], capture_output=True, text=True,
                                timeout=30).stdout
        listed = [line.split()[0] for line in output.splitlines() if line.strip() and not line[0].isspace()]
        self.assertGreater(len(listed), 0)
        fuzzing = section(self.text, "Fuzzing")
        numbers = {"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13}
        match = re.search(r"\b(\w+) coverage-guided targets", fuzzing)
        self.assertIsNotNone(match, "the Fuzzing section no longer says how many targets")
        self.assertEqual(numbers.get(match.group(1).lower()), len(listed), "axfuzz --list: %s" % listed)
        for target in listed:
            self.assertIn("`%s`" % target, fuzzing, "the Fuzzing section does not describe %s" % target)

    def test_xpath_name_is_explained(self):
        self.assertRegex(self.text, r"`@name` is the accessibility\s+identifier")


def help_examples(tool, *args):
    """The example command lines under 'Examples:' in `tool [args] --help` (trailing comments and notes dropped)."""
    text = subprocess.run([tool, *args, "--help"], capture_output=True, text=True, timeout=30).stdout
    examples = []
    inside = False
    for line in text.splitlines():
        if line.strip() == "Examples:":
            inside = True
            continue
        if inside:
            if not line.startswith("  "):
                break
            code, comment = split_comment(line.strip())
            code = re.sub(r"\s+\(.*\)$", "", code)
            exit_match = re.search(r"exit (\d+)", comment)
            examples.append((code, int(exit_match.group(1)) if exit_match else 0))
    return examples


def subcommand_names(tool):
    text = subprocess.run([tool, "--help"], capture_output=True, text=True, timeout=30).stdout
    names = []
    inside = False
    for line in text.splitlines():
        if line.strip() == "SUBCOMMANDS:":
            inside = True
            continue
        if inside:
            match = re.match(r"  ([a-z][a-z-]*)", line)
            if not line.strip():
                break
            if match and match.group(1) != "help":
                names.append(match.group(1))
    return names


class HelpExamplesTest(unittest.TestCase):
    """Every example in axquery's help (the tool's and each subcommand's) runs on a fresh demo server, in a folder
    holding the demo's snapshot.json, and exits 0 unless its comment says `exit N`; axserver's help has examples
    for every subcommand."""

    def test_axquery_help_examples_run_on_the_demo(self):
        axquery = os.path.join(BIN, "axquery")
        server, sock, tmp = start_server("--demo")
        try:
            examples = help_examples(axquery)
            names = subcommand_names(axquery)
            self.assertIn("wait", names)
            for name in names:
                found = help_examples(axquery, name)
                self.assertTrue(found, "axquery %s --help has no examples" % name)
                examples += found
            subprocess.run([os.path.join(BIN, "axserver"), "dump", "--demo", "--snapshot"], check=True, timeout=30,
                           stdout=open(os.path.join(tmp, "snapshot.json"), "w"))
            env = dict(os.environ, AXSERVER_SOCKET=sock, NO_COLOR="1",
                       PATH=os.pathsep.join([os.path.abspath(BIN), os.environ.get("PATH", "/usr/bin:/bin")]))
            failures = []
            for code, expected in examples:
                self.assertTrue(code.startswith("axquery"), code)
                try:
                    # `axquery listen` starts a stack, a server and Orca of its own: seconds, more on a busy machine
                    run = subprocess.run(["bash", "-c", code], env=env, cwd=tmp, capture_output=True, text=True,
                                         timeout=120 if code.startswith("axquery listen") else 15)
                except subprocess.TimeoutExpired:
                    if code.startswith("axquery watch"):
                        continue  # streams until stopped
                    raise
                if run.returncode != expected:
                    failures.append("%s: exit %d, help says %d: %s" % (code, run.returncode, expected, run.stderr.strip()))
            if failures:
                self.fail("\n".join(failures))
        finally:
            server.stop()
            shutil.rmtree(tmp, ignore_errors=True)

    def test_axserver_help_has_examples_for_every_subcommand(self):
        axserver = os.path.join(BIN, "axserver")
        self.assertTrue(help_examples(axserver))
        for name in subcommand_names(axserver):
            self.assertTrue(help_examples(axserver, name), "axserver %s --help has no examples" % name)


if __name__ == "__main__":
    unittest.main()
