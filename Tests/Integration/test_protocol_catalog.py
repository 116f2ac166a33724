"""The protocol catalog is the one place a JSON-RPC method name is written (issue 31 item 1, D-CATALOG-1).

* No Swift module writes a catalog method name as a string literal outside the catalog: the client surfaces (AXClient, axquery, AXMCP, AXWebDriver) call through `Sources/AXProtocol`
  (`client.call(.treeGet, [.format: "json"])`), every other module (the server's method table and its integer
  ranges, the provider library, the router's `initialize`, the conformance runner, the fuzzers, the bench) names
  `RPCMethodName` / `RPCServerMessage` cases. Python literals
  outside the Python client's table are listed with file:line and counted.
* The Python client (`Sources/PythonClient/axclient`) is checked against `Specs/protocol.json`: its one method table
  (`axclient/methods.py`, `Method` and `ServerRequest`) holds exactly the catalog's methods but those listed below as
  deliberately absent (with the reason) and its server requests; no other client file writes a method name as a
  string; every method has a client function; every parameter key a client function sends with a method is a key
  the catalog declares for it (D-PYCLIENT-METHODS-1); every member it reads from an answer is one the catalog
  declares for that method, and `Element` reads only element members (D-CATALOG-6).

Standard library only; needs no build (it reads the committed Specs/protocol.json, which AXProtocolTests keeps
equal to the catalog).
"""
import ast
import json
import os
import re
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SOURCES = os.path.join(ROOT, "Sources")
CATALOG = os.path.join(ROOT, "Specs", "protocol.json")
PYTHON_CLIENT = os.path.join(SOURCES, "PythonClient", "axclient")

# Where method names are declared: the catalog (the server's method table names the catalog's cases too).
DECLARING = ("AXProtocol/",)
# The Swift client surfaces: no method name literal at all.
CLIENT_SURFACES = ("AXClient/", "axquery/", "AXMCP/", "AXWebDriver/")
# Literals that are not AXServer methods although they are spelled like one: MCP's own JSON-RPC methods.
NOT_OURS = {
    ("AXMCP/MCPSession.swift", "initialize"): "MCP's own initialize (the Model Context Protocol), not axserver's",
    ("AXMCP/MCPSession.swift", "ping"): "MCP's own ping (the Model Context Protocol), not axserver's",
}

# Catalog methods the Python client deliberately has no function for, with the reason.
PYTHON_ABSENT = {
    "shutdown": "an automation client does not stop the server; tests stop the process they started",
    "input.configure": "provider-only; the Python provider library does not let the server handle navigation keys",
    "accessibility.status": "Client.screen_reader_running is not wrapped yet; a11y.settings carries isVoiceOverRunning",
}

METHOD_TABLE = os.path.join(PYTHON_CLIENT, "methods.py")
# Client files that still write a method name as a string, with the reason (goal: none).
PYTHON_LITERALS_ALLOWED: dict = {}
# Callees whose first string argument is a method name (a literal there is a name the table does not check).
METHOD_CALLEES = {"call", "notify", "_call", "_act", "_step", "_request", "add", "request"}
METHOD_SHAPE = re.compile(r"^(\$/)?[a-z][a-zA-Z0-9]*(\.[a-zA-Z][a-zA-Z0-9]*)+$")

SWIFT_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def catalog():
    with open(CATALOG, encoding="utf-8") as handle:
        return json.load(handle)


def swift_code(line):
    """The line without its `//` comment (a `//` inside a string literal is kept)."""
    in_string, index = False, 0
    while index < len(line):
        char = line[index]
        if char == "\\" and in_string:
            index += 2
            continue
        if char == '"':
            in_string = not in_string
        elif not in_string and line.startswith("//", index):
            return line[:index]
        index += 1
    return line


def swift_literals(path):
    """(line number, text) of every one-line string literal of a Swift file (multi-line literals skipped)."""
    out, multiline = [], False
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.count('"""') % 2 == 1:
                multiline = not multiline
                continue
            if multiline:
                continue
            out.extend((number, match.group(1)) for match in SWIFT_STRING.finditer(swift_code(line)))
    return out


def python_literals(path):
    """(line number, text) of every string constant of a Python file (docstrings included; they rarely equal a
    method name on their own)."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), path)
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def method_literals(names):
    """{relative path: [(line, name)]} of every literal equal to a method name under Sources/, outside the
    declaring files."""
    found = {}
    for directory, _, files in os.walk(SOURCES):
        for name in sorted(files):
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, SOURCES)
            if relative.startswith(DECLARING):
                continue
            if name.endswith(".swift"):
                literals = swift_literals(path)
            elif name.endswith(".py"):
                literals = python_literals(path)
            else:
                continue
            hits = [(line, text) for line, text in literals
                    if text in names and (relative, text) not in NOT_OURS]
            if hits:
                found[relative] = hits
    return found


class MethodNameLiteralTests(unittest.TestCase):
    def test_swift_clients_name_methods_through_the_catalog(self):
        names = {method["name"] for method in catalog()["methods"]}
        found = method_literals(names)
        clients = {path: hits for path, hits in found.items() if path.startswith(CLIENT_SURFACES)}
        listing = ["%s:%d %r" % (path, line, text) for path, hits in sorted(clients.items()) for line, text in hits]
        self.assertEqual(listing, [], "method names written as strings in a Swift client (call through "
                                      "Sources/AXProtocol, e.g. client.call(.treeGet, [.format: \"json\"])):\n"
                         + "\n".join(listing))
        python = sum(len(hits) for path, hits in found.items() if path.startswith("PythonClient/")
                     and not path.endswith("axclient/methods.py"))
        others = {path: hits for path, hits in found.items()
                  if not path.startswith(CLIENT_SURFACES) and not path.startswith("PythonClient/")}
        print("\nmethod-name literals outside the catalog: Swift clients 0; Python client %d (outside its table "
              "axclient/methods.py; PYTHON_LITERALS_ALLOWED); other modules %d" % (python, sum(map(len, others.values()))))
        swift = ["%s:%d %r" % (path, line, text) for path, hits in sorted(others.items()) if path.endswith(".swift")
                 for line, text in hits]
        self.assertEqual(swift, [], "method names written as strings in a Swift module (name the catalog's case: "
                                    "RPCMethodName.treeGet.rawValue, RPCServerMessage.actionPerform):\n" + "\n".join(swift))


def method_table(path=METHOD_TABLE):
    """{class name: {constant: method name}} of the client's method table (read with ast, not imported)."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), path)
    table = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            table[node.name] = {target.id: item.value.value for item in node.body if isinstance(item, ast.Assign)
                                for target in item.targets
                                if isinstance(target, ast.Name) and isinstance(item.value, ast.Constant)}
    return table


def _flat_table():
    return {(cls, name): value for cls, names in method_table().items() for name, value in names.items()}


def method_name_of(node, table=None):
    """The method a node names: a string literal, or `Method.X` / `ServerRequest.X` of the table; else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return (table if table is not None else _TABLE).get((node.value.id, node.attr))
    return None


_TABLE = _flat_table()


def _method_names_in(node, names):
    return {name for name in (method_name_of(child) for child in ast.walk(node)) if name in names}


PARAM_VARIABLES = {"params", "p", "extra", "body"}


def _dict_keys(node):
    return {key.value for key in node.keys if isinstance(key, ast.Constant) and isinstance(key.value, str)}


def _sent_dict(node):
    """The dict literal a call argument sends: `{…}` itself, or the first argument of `_with_app({…}, app)`."""
    if isinstance(node, ast.Dict):
        return node
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Dict):
        return node.args[0]
    return None


def _keys_of_call(node, methods):
    """Keys of the dicts passed beside a method literal: `call("m", {…})`, `call("m", _with_app({…}, app))`."""
    if not any(method_name_of(arg) in methods for arg in node.args):
        return set()
    keys = set()
    for arg in node.args[1:]:
        sent = _sent_dict(arg)
        if sent is not None:
            keys |= _dict_keys(sent)
    return keys


def _keys_of_statement(node):
    """Keys of `params = {…}` / `params: Dict = {…}` and `params["k"] = …`."""
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        keys = set()
        for target in targets:
            if isinstance(target, ast.Name) and target.id in PARAM_VARIABLES and isinstance(node.value, ast.Dict):
                keys |= _dict_keys(node.value)
            if (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)
                    and target.value.id in PARAM_VARIABLES and isinstance(target.slice, ast.Constant)
                    and isinstance(target.slice.value, str)):
                keys.add(target.slice.value)
        return keys
    return set()


def sent_keys(function, methods):
    """The parameter keys a function sends: dict literals beside a method literal, and the dicts it builds in a
    variable named like params. Limits: keys added by a helper the method name is passed to (`_act`, `_step`)
    are checked in the helper only when it names the method itself; computed keys are not seen."""
    keys = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            keys |= _keys_of_call(node, methods)
        keys |= _keys_of_statement(node)
    return keys


def _method_called(node, methods):
    """The catalog method a call expression calls (`….call(Method.X, …)`), or None."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
    name = method_name_of(node.args[0]) if callee in METHOD_CALLEES else None
    return name if name in methods else None


def _read_key(node):
    """(the expression read, the key) of `x["k"]` and `x.get("k"…)`; else None."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.value, node.slice.value
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
        return node.func.value, node.args[0].value
    return None


def read_members(function, methods):
    """(method, key, line) of each member a function reads from an answer: `call(Method.X, …)["k"]`, `.get("k")`,
    and the same on a name the function bound once to such a call (`result = call(Method.X, …)`). Limits: an
    answer handed to another function, or read through a loop variable, is not followed."""
    bound = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            called = _method_called(node.value, methods)
            name = node.targets[0].id
            bound[name] = called if name not in bound and called else None
    reads = []
    for node in ast.walk(function):
        read = _read_key(node)
        if read is None:
            continue
        source, key = read
        method = _method_called(source, methods)
        if method is None and isinstance(source, ast.Name):
            method = bound.get(source.id)
        if method:
            reads.append((method, key, node.lineno))
    return reads


def _literal_hits(tree, relative, names):
    """(file, name, line, why) of the method names a parsed client file writes as strings: any literal equal to a
    method name, and a method-shaped literal passed first to a caller of methods (a typo the catalog lacks)."""
    hits = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
            hits.add((relative, node.value, node.lineno, "a method name written as a string"))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in METHOD_CALLEES
                and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                and METHOD_SHAPE.match(node.args[0].value) and node.args[0].value not in names):
            hits.add((relative, node.args[0].value, node.lineno,
                      "passed as a method, but the catalog has no such method"))
    return hits


def literal_method_names(names):
    """{(file, name, line): why} over the Python client, its method table left out."""
    found = {}
    for directory, _, files in os.walk(PYTHON_CLIENT):
        for name in sorted(files):
            path = os.path.join(directory, name)
            if not name.endswith(".py") or path == METHOD_TABLE:
                continue
            relative = os.path.relpath(path, PYTHON_CLIENT)
            with open(path, encoding="utf-8") as handle:
                tree = ast.parse(handle.read(), path)
            for file, method, line, why in _literal_hits(tree, relative, names):
                found[(file, method, line)] = why
    return found


# A catalog case named as a raw string (`RPCMethodName.treeGet.rawValue`) and the first lines after it, where a
# hand-written params dictionary would sit.
RAW_METHOD = re.compile(r"RPCMethodName\.(\w+)\.rawValue")
DICTIONARY_KEY = re.compile(r'"(\w+)"\s*:')


def catalog_cases():
    """{Swift case name: wire name} of RPCMethodName, read from its declaration."""
    with open(os.path.join(SOURCES, "AXProtocol", "Methods.swift"), encoding="utf-8") as handle:
        return dict(re.findall(r'case (\w+) = "([^"]+)"', handle.read()))


def raw_parameter_keys(sources, params, cases):
    """[(relative path, line, method, key)]: a literal dictionary key that the method named just before it declares
    (or `app`), in the three lines after a raw `RPCMethodName.x.rawValue` in a Swift file outside the catalog."""
    hits = []
    for directory, _, files in os.walk(sources):
        for name in sorted(files):
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, sources)
            if not name.endswith(".swift") or relative.startswith(DECLARING):
                continue
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            for match in RAW_METHOD.finditer(text):
                method = cases.get(match.group(1))
                window = "\n".join(text[match.end():match.end() + 400].split("\n")[:3])
                for key in DICTIONARY_KEY.finditer(window):
                    if method and key.group(1) in params.get(method, ()):
                        hits.append((relative, text.count("\n", 0, match.start()) + 1, method, key.group(1)))
    return hits


class ParameterKeyLiteralTests(unittest.TestCase):
    """No Swift module sends a request with hand-written parameter keys (D-CATALOG-3): a request is built from the
    method's declared keys (`RPCMethod.treeGet.request([.format: "json"], app: id)`, or a typed client's call), so a
    key the method lacks does not compile. The server's handlers read their params by the same keys
    (`Params<Spec.Param>`), which the compiler checks."""

    def test_no_swift_request_writes_a_parameter_key(self):
        params = {method["name"]: {param["name"] for param in method["params"]} | {"app"}
                  for method in catalog()["methods"]}
        hits = raw_parameter_keys(SOURCES, params, catalog_cases())
        self.assertEqual(["%s:%d %s %r" % hit for hit in hits], [],
                         "parameter keys written as strings beside a method name (build the request from the "
                         "catalog: RPCMethod.x.request([.key: value], app: id)):")

    def test_the_key_scan_notices_a_raw_request(self):
        import tempfile
        with tempfile.TemporaryDirectory() as sources:
            os.makedirs(os.path.join(sources, "AXBench"))
            with open(os.path.join(sources, "AXBench", "main.swift"), "w", encoding="utf-8") as handle:
                handle.write('_ = call(\n    RPCMethodName.treeGet.rawValue, ["app": .string(app), "format": "json"])\n')
            hits = raw_parameter_keys(sources, {"tree.get": {"format", "app"}}, {"treeGet": "tree.get"})
        self.assertEqual([(path, line, key) for path, line, _, key in hits],
                         [("AXBench/main.swift", 2, "app"), ("AXBench/main.swift", 2, "format")])


class PythonClientTests(unittest.TestCase):
    def setUp(self):
        self.catalog = catalog()
        self.params = {method["name"]: {param["name"] for param in method["params"]} | {"app"}
                       for method in self.catalog["methods"]}

    def client_functions(self):
        for directory, _, files in os.walk(PYTHON_CLIENT):
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as handle:
                    tree = ast.parse(handle.read(), path)
                for node in ast.walk(tree):
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        yield os.path.relpath(path, ROOT), node

    def test_every_method_has_a_client_function_or_a_reason(self):
        named = set()
        for _, function in self.client_functions():
            named |= _method_names_in(function, self.params)
        missing = sorted(set(self.params) - named - set(PYTHON_ABSENT))
        self.assertEqual(missing, [], "catalog methods the Python client neither calls nor lists in PYTHON_ABSENT "
                                      "(add a function, or the reason it has none)")
        stale = sorted(name for name in PYTHON_ABSENT if name in named or name not in self.params)
        self.assertEqual(stale, [], "PYTHON_ABSENT lists methods the client calls, or that the catalog lacks")
        print("\nPython client: %d of %d catalog methods called; %d deliberately absent"
              % (len(named), len(self.params), len(PYTHON_ABSENT)))

    def test_the_method_table_is_the_catalog(self):
        table = method_table()
        methods = sorted(table["Method"].values())
        self.assertEqual(len(methods), len(set(methods)), "a method written twice in axclient/methods.py")
        unknown = sorted(set(methods) - set(self.params))
        self.assertEqual(unknown, [], "axclient/methods.py names methods Specs/protocol.json lacks (a typo, or a "
                                      "method the server removed)")
        missing = sorted(set(self.params) - set(methods) - set(PYTHON_ABSENT))
        self.assertEqual(missing, [], "catalog methods neither in axclient/methods.py nor in PYTHON_ABSENT")
        absent_but_listed = sorted(set(PYTHON_ABSENT) & set(methods))
        self.assertEqual(absent_but_listed, [], "PYTHON_ABSENT lists methods the table has")
        requests = {message["name"] for message in self.catalog["serverMessages"] if message.get("request")}
        self.assertEqual(sorted(table["ServerRequest"].values()), sorted(requests),
                         "ServerRequest must hold the requests the server sends a provider")
        print("\nPython client method table: %d methods, %d deliberately absent, %d server requests"
              % (len(methods), len(PYTHON_ABSENT), len(requests)))

    def test_no_client_file_writes_a_method_name(self):
        names = set(self.params) | {message["name"] for message in self.catalog["serverMessages"]}
        found, used = literal_method_names(names), set()
        for key in list(found):
            if key[:2] in PYTHON_LITERALS_ALLOWED:
                used.add(key[:2])
                del found[key]
        listing = ["%s:%d %r: %s" % (path, line, name, why) for (path, name, line), why in sorted(found.items())]
        self.assertEqual(listing, [], "write the method through axclient/methods.py (Method.X):\n" + "\n".join(listing))
        self.assertEqual(sorted(set(PYTHON_LITERALS_ALLOWED) - used), [], "PYTHON_LITERALS_ALLOWED entries that match "
                                                                          "nothing (remove them)")

    def test_the_literal_scan_notices_names_and_typos(self):
        source = ("def f(c):\n    c.call('tree.get')\n    c._act('action.tpa', {})\n"
                  "    c.call(Method.TREE_GET)\n    x = 'server.sock'\n")
        hits = sorted(_literal_hits(ast.parse(source), "x.py", {"tree.get"}))
        self.assertEqual(hits, [("x.py", "action.tpa", 3, "passed as a method, but the catalog has no such method"),
                                ("x.py", "tree.get", 2, "a method name written as a string")])
        self.assertEqual(method_name_of(ast.parse("Method.TREE_GET").body[0].value,
                                        {("Method", "TREE_GET"): "tree.get"}), "tree.get")

    def test_the_clients_closed_sets_are_the_catalogs(self):
        """A param the catalog declares with a closed set of values (`values` in protocol.json) is the same set in
        the client: `wait.for`'s `state` is `axclient.client.WAIT_STATES` (a state the server lacks would be
        refused only at run time; one the client lacks, never sent)."""
        declared = {(method["name"], param["name"]): param["values"] for method in self.catalog["methods"]
                    for param in method["params"] if "values" in param}
        self.assertIn(("wait.for", "state"), declared, "protocol.json lists no values for wait.for's state")
        with open(os.path.join(PYTHON_CLIENT, "client.py"), encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
        states = next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                      and any(getattr(target, "id", None) == "WAIT_STATES" for target in node.targets))
        self.assertEqual(list(states), declared[("wait.for", "state")])

    def test_every_key_the_client_sends_is_declared(self):
        problems, checked = [], 0
        for path, function in self.client_functions():
            methods = _method_names_in(function, self.params)
            if not methods:
                continue
            allowed = set().union(*(self.params[name] for name in methods))
            for key in sorted(sent_keys(function, methods)):
                checked += 1
                if key not in allowed:
                    problems.append("%s:%d %s() sends %r, which %s does not take"
                                    % (path, function.lineno, function.name, key, " / ".join(sorted(methods))))
        self.assertEqual(problems, [], "\n".join(problems))
        self.assertGreater(checked, 50, "the scan found too few keys: did the client's call sites change shape?")
        print("\nPython client: %d sent keys checked against Specs/protocol.json" % checked)

    def test_every_member_the_client_reads_is_declared(self):
        """Each member the client reads from an answer is one the catalog declares for that method (`members` of its
        result; an element's, `elementMembers`, for a method that answers an element), and `Element` reads only
        element members (D-CATALOG-6)."""
        element_members = {member["name"] for member in self.catalog["elementMembers"]}
        members = {}
        for method in self.catalog["methods"]:
            result = method["result"]
            declared = {member["name"] for member in result.get("members", [])}
            members[method["name"]] = declared | (element_members if result["kind"] == "element" else set())
        problems, checked = [], 0
        for path, function in self.client_functions():
            for method, key, line in read_members(function, set(self.params)):
                checked += 1
                if key not in members[method]:
                    problems.append("%s:%d %s() reads %r from %s, which does not answer it"
                                    % (path, line, function.name, key, method))
        with open(os.path.join(PYTHON_CLIENT, "element.py"), encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
        element_class = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Element")
        for node in ast.walk(element_class):
            read = _read_key(node)
            if read and isinstance(read[0], ast.Name) and read[0].id == "self":
                checked += 1
                if read[1] not in element_members:
                    problems.append("axclient/element.py:%d Element reads %r, which no element has"
                                    % (node.lineno, read[1]))
        self.assertEqual(problems, [], "\n".join(problems))
        self.assertGreater(checked, 25, "the scan found too few reads: did the client's call sites change shape?")
        print("\nPython client: %d result members read, each declared in Specs/protocol.json" % checked)

    def test_the_read_scan_follows_a_bound_answer(self):
        source = ("def f(c):\n    r = c.call(Method.QUERY_COUNT, {})\n    c.call(Method.TREE_GET)['xml']\n"
                  "    return r['count'], r.get('bogus')\n")
        function = ast.parse(source).body[0]
        self.assertEqual(sorted(read_members(function, {"query.count", "tree.get"})),
                         [("query.count", "bogus", 4), ("query.count", "count", 4), ("tree.get", "xml", 3)])


if __name__ == "__main__":
    unittest.main()
