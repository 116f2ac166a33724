#!/usr/bin/env python3
"""code_metrics.py - readability figures of the Swift sources, per module and in total.

    Tools/code_metrics.py [ROOT ...] [--top N]

ROOT defaults to Sources (each directory under it is a module; a file directly under a ROOT counts for the ROOT).
Prints one row per module and a total row:

  files, lines      .swift files and their physical lines
  locals, 1-letter  local bindings (see below) and the share named by one letter
  params, 1-letter  function, initializer and subscript parameters (their internal name) and the one-letter share
  ; lines           lines on which a `;` joins statements
  funcs, >15        function bodies and those whose cyclomatic complexity exceeds 15 (count and share)
  public, package   declarations carrying that access modifier
  unchecked         `@unchecked Sendable` conformances
  asserts           runtime checks: precondition, preconditionFailure, assert, assertionFailure,
                    dispatchPrecondition calls
  code              code lines: lines holding at least one token (blank and comment-only lines left out)
  br/100            branches per 100 code lines: the decision points complexity counts (if, guard, for, while,
                    case, catch, &&, ||, ternary ?), counted in all code (closures and accessors included, enum
                    case declarations not), times 100, over the code lines
  tok/ln            tokens per code line (a string literal is one token; comments none)
A closing line sums the total: functions over 15 and their share, the largest and the average complexity, branches
per 100 code lines and tokens per code line. lizard (not a dependency) gives comparable figures: the sum of (CCN - 1) and of
token_count over the sum of NLOC of its functions.

Method (a token-level scan, no Swift parser; stdlib only, so it runs on a clean clone):
  * Comments and string literals are dropped first (nested block comments, multi-line and raw strings); the code of
    string interpolations is kept.
  * Each `{` opens a scope whose kind comes from the nearest declaration or statement keyword before it in the same
    statement: struct/class/enum/extension/protocol/actor open a type body; func/init/deinit/subscript open a
    function body; anything else (if, for, closures, accessors...) opens a code block.
  * A local is a name bound inside a function body or code block: `let x` / `var x` (also tuple patterns
    `let (a, b)` and enum patterns `case let .some(a)` / `case .some(let a)`, `if let`, `guard let`, `catch let`),
    `for x in` / `for (a, b) in`, and closure parameters `{ a, b in` / `{ (a: T, b) in`. Stored properties and
    globals are not locals. Shorthand `$0` parameters are not names.
  * Rule for "one letter": a name of one character other than `_`, except the index names i, j and k bound by a
    `for` loop (the anchors' convention). The raw share with those indices is printed below the table.
  * A parameter's name is its internal name: the second identifier when it has a label (`for id: String` -> id),
    the only one otherwise; `_` is no name.
  * Cyclomatic complexity of a function = 1 + the number of if, guard, for, while, case, catch, &&, || and ternary
    `?` tokens in its body, closures included, nested functions excluded (they count on their own) - the way lizard
    counts Swift.
  * `public` / `package` count when followed by a declaration keyword or modifier (not `package` as a name).
  * Per function (`FileMetrics.function_sizes`, read by Tools/code_budgets.py): its complexity, its code lines and its
    tokens, from its keyword to its closing brace (a nested function's lines and tokens are its own).
"""

import os
import re
import sys
from collections import defaultdict

TYPE_KEYWORDS = {"struct", "class", "enum", "extension", "protocol", "actor"}
FUNCTION_KEYWORDS = {"func", "init", "deinit", "subscript"}
SCOPE_KEYWORDS = TYPE_KEYWORDS | FUNCTION_KEYWORDS | {
    "var", "let", "if", "guard", "else", "for", "while", "repeat", "switch", "do", "catch", "defer", "get", "set",
    "willSet", "didSet", "in", "return", "case", "default", "where", "_modify", "_read", "throw",
}
DECISION_KEYWORDS = {"if", "guard", "for", "while", "case", "catch"}
DECLARATION_FOLLOWERS = {
    "func", "var", "let", "struct", "class", "enum", "extension", "protocol", "actor", "init", "subscript",
    "typealias", "static", "final", "override", "convenience", "required", "mutating", "nonmutating", "lazy",
    "indirect", "nonisolated", "private", "fileprivate", "internal", "weak", "unowned", "dynamic", "(", "@",
}
ASSERTIONS = {"precondition", "preconditionFailure", "assert", "assertionFailure", "dispatchPrecondition"}
LOOP_INDEX_NAMES = {"i", "j", "k"}
OPERATOR_CHARS = set("/=-+!*%<>&|^~?.")
IDENT_START = re.compile(r"[A-Za-z_]")
IDENT_CHAR = re.compile(r"[A-Za-z0-9_]")


class Token:
    __slots__ = ("text", "line", "space_before", "space_after", "kind")

    def __init__(self, text, line, space_before, kind):
        self.text = text
        self.line = line
        self.space_before = space_before
        self.space_after = False
        self.kind = kind  # "ident", "num", "op", "punct", "nl"

    def __repr__(self):
        return f"{self.text}@{self.line}"


def tokenize(source):
    """Tokens of the code: comments and string contents removed, interpolated code kept."""
    tokens = []
    position = 0
    line = 1
    length = len(source)
    # Stack of open string literals we are interpolating inside: (quote, hashes, paren depth at entry).
    interpolations = []
    paren_depth = 0

    def add(text, kind, space_before):
        if tokens and kind != "nl":
            pass
        tokens.append(Token(text, line, space_before, kind))

    def skip_string(start, quote, hashes):
        """Skips a string body from `start` (just after the opening quote); returns (position, interpolation?)."""
        nonlocal line
        index = start
        closing = quote + "#" * hashes
        escape = "\\" + "#" * hashes
        while index < length:
            if source.startswith(closing, index):
                return index + len(closing), False
            if source.startswith(escape, index):
                after = index + len(escape)
                if after < length and source[after] == "(":
                    return after + 1, True
                index = after + 1
                continue
            if source[index] == "\n":
                line += 1
            index += 1
        return index, False

    space_before = True
    while position < length:
        char = source[position]
        if char == "\n":
            tokens.append(Token("\n", line, True, "nl"))
            line += 1
            position += 1
            space_before = True
            continue
        if char in " \t\r":
            position += 1
            space_before = True
            if tokens:
                tokens[-1].space_after = True
            continue
        if source.startswith("//", position):
            end = source.find("\n", position)
            position = length if end < 0 else end
            continue
        if source.startswith("/*", position):
            depth = 0
            while position < length:
                if source.startswith("/*", position):
                    depth += 1
                    position += 2
                elif source.startswith("*/", position):
                    depth -= 1
                    position += 2
                    if depth == 0:
                        break
                else:
                    if source[position] == "\n":
                        line += 1
                    position += 1
            space_before = True
            continue
        if char == "#" or char == '"':
            hashes = 0
            probe = position
            while probe < length and source[probe] == "#":
                hashes += 1
                probe += 1
            if probe < length and source[probe] == '"':
                quote = '"""' if source.startswith('"""', probe) else '"'
                position, interpolating = skip_string(probe + len(quote), quote, hashes)
                tokens.append(Token('""', line, space_before, "string"))
                space_before = False
                if interpolating:
                    interpolations.append((quote, hashes, paren_depth))
                    paren_depth += 1
                continue
        if char == ")" and interpolations and paren_depth - 1 == interpolations[-1][2]:
            quote, hashes, _ = interpolations.pop()
            paren_depth -= 1
            position, interpolating = skip_string(position + 1, quote, hashes)
            if interpolating:
                interpolations.append((quote, hashes, paren_depth))
                paren_depth += 1
            space_before = False
            continue
        if IDENT_START.match(char) or (char == "$" and position + 1 < length and IDENT_CHAR.match(source[position + 1])):
            end = position + 1
            while end < length and IDENT_CHAR.match(source[end]):
                end += 1
            text = source[position:end]
            tokens.append(Token(text, line, space_before, "num" if text[0].isdigit() else "ident"))
            position = end
            space_before = False
            continue
        if char == "`":
            end = source.find("`", position + 1)
            end = length - 1 if end < 0 else end
            tokens.append(Token(source[position + 1 : end], line, space_before, "ident"))
            position = end + 1
            space_before = False
            continue
        if char.isdigit():
            end = position + 1
            while end < length and (IDENT_CHAR.match(source[end]) or source[end] == "."):
                if source[end] == "." and not (end + 1 < length and source[end + 1].isdigit()):
                    break
                end += 1
            tokens.append(Token(source[position:end], line, space_before, "num"))
            position = end
            space_before = False
            continue
        if char in OPERATOR_CHARS:
            end = position + 1
            while end < length and source[end] in OPERATOR_CHARS:
                end += 1
            tokens.append(Token(source[position:end], line, space_before, "op"))
            position = end
            space_before = False
            continue
        if char == "(":
            paren_depth += 1
        elif char == ")":
            paren_depth -= 1
        tokens.append(Token(char, line, space_before, "punct"))
        position += 1
        space_before = False
    for index in range(len(tokens) - 1):
        following = tokens[index + 1]
        if following.space_before or following.kind == "nl":
            tokens[index].space_after = True
    return tokens


class FileMetrics:
    def __init__(self):
        self.locals = []  # (name, bound_by_for)
        self.params = []
        self.semicolon_lines = set()
        self.functions = []  # (name, line, complexity)
        self.function_sizes = []  # (name, line, complexity, code lines, tokens): the figures lizard reports
        self.public = 0
        self.package = 0
        self.unchecked = 0
        self.asserts = 0
        self.branches = 0  # decision points in code (the tokens complexity counts), outside type bodies too
        self.code_lines = set()  # lines holding at least one token
        self.tokens = 0


def next_significant(tokens, index):
    while index < len(tokens) and tokens[index].kind == "nl":
        index += 1
    return index


def group_names(tokens, open_index):
    """Pattern variables in the parenthesized group at open_index: identifiers at depth 1 between `(`/`,` and
    `,`/`)`/`:`; returns (names, index after the group)."""
    names = []
    depth = 0
    index = open_index
    while index < len(tokens):
        token = tokens[index]
        if token.text in ("(", "["):
            depth += 1
        elif token.text in (")", "]"):
            depth -= 1
            if depth == 0:
                return names, index + 1
        elif depth == 1 and token.kind == "ident":
            before = tokens[index - 1].text
            after = tokens[index + 1].text if index + 1 < len(tokens) else ""
            if before in ("(", ",", "let", "var") and after in (",", ")", ":"):
                if token.text not in ("let", "var", "_"):
                    names.append(token.text)
        index += 1
    return names, index


def parameter_names(tokens, open_index):
    """Internal names of a parameter clause starting at `(`; returns (names, index after the clause)."""
    names = []
    depth = 0
    index = open_index
    pending = []
    while index < len(tokens):
        token = tokens[index]
        if token.text in ("(", "[", "<"):
            depth += 1
            if depth == 1:
                pending = []
        elif token.text in (")", "]", ">"):
            depth -= 1
            if depth == 0:
                return names, index + 1
        elif depth == 1:
            if token.text == ",":
                pending = []
            elif token.text == ":" and pending is not None:
                if pending:
                    name = pending[-1]
                    if name != "_":
                        names.append(name)
                pending = None
            elif token.kind == "ident" and pending is not None and token.text not in ("inout",):
                pending.append(token.text)
            elif token.kind == "op" and token.text.startswith("@"):
                pass
        index += 1
    return names, index


def closure_parameters(tokens, brace_index):
    """Names of a closure's explicit parameters `{ a, b in` / `{ (a: T, b) -> U in` / `{ [weak self] a in`."""
    index = next_significant(tokens, brace_index + 1)
    if index < len(tokens) and tokens[index].text == "[":
        depth = 0
        while index < len(tokens):
            if tokens[index].text == "[":
                depth += 1
            elif tokens[index].text == "]":
                depth -= 1
                if depth == 0:
                    break
            index += 1
        index = next_significant(tokens, index + 1)
    if index >= len(tokens):
        return []
    if tokens[index].text == "(":
        names, after = group_names(tokens, index)
        limit = after
        while limit < len(tokens) and tokens[limit].text != "in":
            if tokens[limit].text in ("{", "}", "\n", "="):
                return []
            limit += 1
        return names if limit < len(tokens) else []
    names = []
    while index < len(tokens) and tokens[index].kind == "ident" and tokens[index].text != "in":
        names.append(tokens[index].text)
        index += 1
        if index < len(tokens) and tokens[index].text == ",":
            index += 1
            continue
        break
    if names and index < len(tokens) and tokens[index].text == "in":
        return [name for name in names if name != "_"]
    return []


def analyze(tokens):
    metrics = FileMetrics()
    # Scope stack entries: kind ("type", "function", "code"); functions: [name, line, complexity].
    scopes = []
    function_stack = []
    statement_start = 0
    paren_depth = 0

    def in_code():
        return bool(scopes) and scopes[-1] != "type"

    def scope_kind(brace_index):
        depth = 0
        index = brace_index - 1
        while index >= statement_start:
            token = tokens[index]
            if token.text in (")", "]", ">"):
                depth += 1
            elif token.text in ("(", "[", "<"):
                depth = max(0, depth - 1)
            elif depth == 0 and token.kind == "ident" and token.text in SCOPE_KEYWORDS:
                previous = tokens[index - 1].text if index > 0 else ""
                if previous == ".":
                    index -= 1
                    continue
                if token.text in TYPE_KEYWORDS:
                    if token.text == "class" and tokens[index + 1].text in ("func", "var", "let", "subscript"):
                        index -= 1
                        continue
                    return "type", None
                if token.text in FUNCTION_KEYWORDS:
                    name = token.text
                    if token.text == "func" and index + 1 < len(tokens):
                        name = tokens[index + 1].text
                    return "function", (name, index)
                return "code", None
            index -= 1
        return "code", None

    index = 0
    count = len(tokens)
    while index < count:
        token = tokens[index]
        text = token.text
        if token.kind != "nl":
            metrics.tokens += 1
            metrics.code_lines.add(token.line)
            if function_stack:
                function_stack[-1][4].add(token.line)
                function_stack[-1][5] += 1
        is_operator_branch = token.kind == "op" and (
            (text == "?" and token.space_before and token.space_after) or text in ("&&", "||")
        )
        is_keyword_branch = (
            token.kind == "ident"
            and text in DECISION_KEYWORDS
            and (index == 0 or tokens[index - 1].text != ".")
            and in_code()
        )
        if is_operator_branch or is_keyword_branch:
            metrics.branches += 1
        if is_operator_branch and function_stack:
            function_stack[-1][2] += 1
        if text == ";":
            metrics.semicolon_lines.add(token.line)
            statement_start = index + 1
        elif text == "(":
            paren_depth += 1
        elif text == ")":
            paren_depth -= 1
        elif text == "{":
            kind, found = scope_kind(index)
            scopes.append(kind)
            if kind == "function":
                name, keyword_index = found
                # The header (from the keyword to this brace) is the function's too, as lizard counts it.
                header = [tokens[probe] for probe in range(keyword_index, index + 1) if tokens[probe].kind != "nl"]
                if function_stack:
                    function_stack[-1][5] -= len(header)
                function_stack.append([name, token.line, 1, len(scopes), {t.line for t in header}, len(header)])
            elif kind == "code" and in_code():
                for parameter in closure_parameters(tokens, index):
                    metrics.locals.append((parameter, False))
            statement_start = index + 1
        elif text == "}":
            if scopes:
                if function_stack and function_stack[-1][3] == len(scopes):
                    name, line, complexity, _, lines, token_count = function_stack.pop()
                    metrics.functions.append((name, line, complexity))
                    metrics.function_sizes.append((name, line, complexity, len(lines), token_count))
                scopes.pop()
            statement_start = index + 1
        elif token.kind == "ident":
            following = tokens[index + 1] if index + 1 < count else None
            previous = tokens[index - 1] if index > 0 else None
            if text in DECISION_KEYWORDS and function_stack and (previous is None or previous.text != "."):
                function_stack[-1][2] += 1
            if text in ("public", "package") and following is not None:
                if following.text in DECLARATION_FOLLOWERS or following.text in ("func", "init"):
                    if not (text == "package" and following.text == "("):
                        if text == "public":
                            metrics.public += 1
                        else:
                            metrics.package += 1
            elif text == "unchecked" and previous is not None and previous.text == "@":
                if following is not None and following.text == "Sendable":
                    metrics.unchecked += 1
            elif text in ASSERTIONS and following is not None and following.text == "(":
                if previous is None or previous.text != "func":
                    metrics.asserts += 1
            elif text in ("let", "var") and in_code() and following is not None:
                if following.kind == "ident" and following.text not in ("_",):
                    after = tokens[index + 2].text if index + 2 < count else ""
                    if after not in ("(", "."):
                        metrics.locals.append((following.text, False))
                elif following.text == "(":
                    for name in group_names(tokens, index + 1)[0]:
                        metrics.locals.append((name, False))
                elif following.text == "." and index + 3 < count and tokens[index + 3].text == "(":
                    for name in group_names(tokens, index + 3)[0]:
                        metrics.locals.append((name, False))
            elif text == "for" and following is not None and in_code():
                if following.kind == "ident" and following.text not in ("case", "let", "var", "_", "try", "await"):
                    metrics.locals.append((following.text, True))
                elif following.text == "(":
                    for name in group_names(tokens, index + 1)[0]:
                        metrics.locals.append((name, True))
            elif text in FUNCTION_KEYWORDS and text != "deinit" and (previous is None or previous.text != "."):
                probe = index + 1
                if text == "func":
                    probe += 1
                while probe < count and tokens[probe].text in ("?", "!"):
                    probe += 1
                if probe < count and tokens[probe].text == "<":
                    depth = 0
                    while probe < count:
                        if tokens[probe].text.startswith("<"):
                            depth += tokens[probe].text.count("<")
                        if ">" in tokens[probe].text:
                            depth -= tokens[probe].text.count(">")
                            if depth <= 0:
                                probe += 1
                                break
                        probe += 1
                if probe < count and tokens[probe].text == "(":
                    metrics.params.extend(parameter_names(tokens, probe)[0])
        index += 1
    return metrics


def is_one_letter(name, bound_by_for, count_loop_indices):
    if len(name) != 1 or name == "_":
        return False
    if bound_by_for and name in LOOP_INDEX_NAMES and not count_loop_indices:
        return False
    return True


def module_of(path, root):
    relative = os.path.relpath(path, root)
    parts = relative.split(os.sep)
    name = os.path.basename(os.path.normpath(root))
    return parts[0] if len(parts) > 1 else name


def percent(part, whole):
    return f"{100.0 * part / whole:5.1f} %" if whole else "    - "


def ratio(part, whole):
    return f"{part / whole:.1f}" if whole else "-"


def main(arguments):
    top = 0
    roots = []
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        if argument == "--top":
            top = int(arguments[index + 1])
            index += 2
            continue
        if argument in ("-h", "--help"):
            print(__doc__)
            return 0
        roots.append(argument)
        index += 1
    if not roots:
        roots = ["Sources"]
    totals = defaultdict(lambda: defaultdict(int))
    complex_functions = []
    for root in roots:
        for directory, _, files in os.walk(root):
            for file_name in sorted(files):
                if not file_name.endswith(".swift"):
                    continue
                path = os.path.join(directory, file_name)
                with open(path, encoding="utf-8", errors="replace") as handle:
                    source = handle.read()
                metrics = analyze(tokenize(source))
                row = totals[module_of(path, root)]
                row["files"] += 1
                row["lines"] += source.count("\n")
                row["locals"] += len(metrics.locals)
                row["locals1"] += sum(1 for name, by_for in metrics.locals if is_one_letter(name, by_for, False))
                row["locals1raw"] += sum(1 for name, by_for in metrics.locals if is_one_letter(name, by_for, True))
                row["params"] += len(metrics.params)
                row["params1"] += sum(1 for name in metrics.params if is_one_letter(name, False, False))
                row["semicolons"] += len(metrics.semicolon_lines)
                row["functions"] += len(metrics.functions)
                row["complex"] += sum(1 for _, _, complexity in metrics.functions if complexity > 15)
                row["complexity"] += sum(complexity for _, _, complexity in metrics.functions)
                row["public"] += metrics.public
                row["package"] += metrics.package
                row["unchecked"] += metrics.unchecked
                row["asserts"] += metrics.asserts
                row["branches"] += metrics.branches
                row["code"] += len(metrics.code_lines)
                row["tokens"] += metrics.tokens
                for name, line, complexity in metrics.functions:
                    if complexity > 15:
                        complex_functions.append((complexity, f"{path}:{line}", name))
    header = (
        f"{'module':<18}{'files':>6}{'lines':>8}{'locals':>8}{'1-letter':>9}{'params':>8}{'1-letter':>9}"
        f"{'; lines':>8}{'funcs':>7}{'>15':>5}{'share':>8}{'public':>8}{'package':>8}{'unchecked':>10}{'asserts':>8}"
        f"{'code':>8}{'br/100':>8}{'tok/ln':>7}"
    )
    print(header)
    print("-" * len(header))
    grand = defaultdict(int)

    def print_row(name, row):
        print(
            f"{name:<18}{row['files']:>6}{row['lines']:>8}{row['locals']:>8}{percent(row['locals1'], row['locals']):>9}"
            f"{row['params']:>8}{percent(row['params1'], row['params']):>9}{row['semicolons']:>8}{row['functions']:>7}"
            f"{row['complex']:>5}{percent(row['complex'], row['functions']):>8}{row['public']:>8}{row['package']:>8}"
            f"{row['unchecked']:>10}{row['asserts']:>8}{row['code']:>8}{ratio(row['branches'] * 100, row['code']):>8}"
            f"{ratio(row['tokens'], row['code']):>7}"
        )

    for name in sorted(totals):
        print_row(name, totals[name])
        for key, value in totals[name].items():
            grand[key] += value
    print("-" * len(header))
    print_row("total", grand)
    print(
        f"one-letter locals counting for-loop indices i/j/k too: {grand['locals1raw']} of {grand['locals']} "
        f"({percent(grand['locals1raw'], grand['locals']).strip()})"
    )
    print(
        f"functions over 15: {grand['complex']} of {grand['functions']} ({percent(grand['complex'], grand['functions']).strip()}); "
        f"largest complexity {max((c for c, _, _ in complex_functions), default='<= 15')}; "
        f"average complexity {ratio(grand['complexity'], grand['functions'])}; "
        f"branches per 100 code lines {ratio(grand['branches'] * 100, grand['code'])}; "
        f"tokens per code line {ratio(grand['tokens'], grand['code'])}"
    )
    if top:
        print(f"\nmost complex functions (complexity > 15, top {top}):")
        for complexity, location, name in sorted(complex_functions, reverse=True)[:top]:
            print(f"  {complexity:4}  {name:<32} {location}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
