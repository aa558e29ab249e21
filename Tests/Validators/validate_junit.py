#!/usr/bin/env python3
"""Validates a JUnit XML file written by `loophunter --format junit`.

Usage: validate_junit.py FILE EXPECTED_FAILURES

Loads the file with junitparser and checks that every suite's tests, failures, errors and skipped
attributes match its test cases, that the <testsuites> totals match the suites, that the number of
failures is EXPECTED_FAILURES, that every test case has a classname and a name (unique within its
class), and that every failure has a message and a type.

Exits 0 when the file is valid; otherwise 1, with one line per problem on stderr.
Run it with the interpreter of the venv that scripts/setup-validators.sh creates.
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    if len(argv) != 3 or not argv[2].isdigit():
        print(__doc__, file=sys.stderr)
        return 2
    path, expected_failures = argv[1], int(argv[2])
    try:
        from junitparser import Error, Failure, JUnitXml, Skipped, TestSuite
    except ImportError as error:
        print(f"{error}: run scripts/setup-validators.sh and use .build/validators-venv/bin/python", file=sys.stderr)
        return 1
    try:
        xml = JUnitXml.fromfile(path)
    except Exception as error:  # junitparser raises the XML parser's own errors
        print(f"{path}: junitparser cannot read it: {error}", file=sys.stderr)
        return 1

    problems: list[str] = []
    suites = [xml] if isinstance(xml, TestSuite) else list(xml)
    if not suites:
        problems.append("no <testsuite>")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for s, suite in enumerate(suites):
        where = f"testsuite[{s}] {suite.name!r}"
        cases = list(suite)
        counted = {
            "tests": len(cases),
            "failures": sum(1 for case in cases for result in case.result if isinstance(result, Failure)),
            "errors": sum(1 for case in cases for result in case.result if isinstance(result, Error)),
            "skipped": sum(1 for case in cases for result in case.result if isinstance(result, Skipped)),
        }
        for key, value in counted.items():
            declared = getattr(suite, key)
            if declared != value:
                problems.append(f"{where}: {key}=\"{declared}\" but {value} counted")
            totals[key] += value
        seen: set[tuple[str, str]] = set()
        for c, case in enumerate(cases):
            at = f"{where} testcase[{c}]"
            if not case.classname or not case.name:
                problems.append(f"{at}: classname {case.classname!r} or name {case.name!r} is empty")
            key = (case.classname or "", case.name or "")
            if key in seen:
                problems.append(f"{at}: {case.classname}.{case.name} is not unique")
            seen.add(key)
            for result in case.result:
                if isinstance(result, Failure) and (not result.message or not result.type):
                    problems.append(f"{at}: failure without a message or a type")
    if not isinstance(xml, TestSuite):
        for key in ("tests", "failures", "errors"):
            declared = getattr(xml, key)
            if declared is not None and declared != totals[key]:
                problems.append(f"testsuites: {key}=\"{declared}\" but {totals[key]} counted in the suites")
    if totals["failures"] != expected_failures:
        problems.append(f"{totals['failures']} failures, expected {expected_failures}")
    if totals["errors"]:
        problems.append(f"{totals['errors']} errors, expected none")

    if problems:
        print(f"{path}: {len(problems)} problem(s):", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
