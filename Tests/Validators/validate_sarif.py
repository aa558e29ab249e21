#!/usr/bin/env python3
"""Validates a SARIF file written by `loophunter --format sarif`.

Usage: validate_sarif.py FILE

1. The log must load into sarif-pydantic's SARIF 2.1.0 object model, with no property the model
   or the SARIF specification does not know (the model accepts unknown keys; a misspelt one is an
   error here).
2. LoopHunter's promises: version 2.1.0 and the schema URI, every result's ruleId is a rule of the
   driver (and ruleIndex points at it), levels are SARIF levels, regions start at line 1 or later,
   every location has a physical or a logical location, every uriBaseId is declared in
   originalUriBaseIds (an absolute file URI ending in '/'), absolute URIs are file URIs, every
   result has the partial fingerprint loophunterFinding/v1, the run is successful, and tool
   execution notifications are valid notifications.
3. A real consumer reads it: sarif-tools' `sarif summary` must count every result at its level,
   and `sarif ls`, `sarif csv` and `sarif codeclimate` must succeed.

Exits 0 when the file is valid; otherwise 1, with one line per problem on stderr.
Run it with the interpreter of the venv that scripts/setup-validators.sh creates.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlparse

LEVELS = {"none", "note", "warning", "error"}
SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT = "loophunterFinding/v1"

# Properties of the SARIF 2.1.0 specification that sarif-pydantic's model does not declare
# (it keeps them as "extra" fields): allowed; any other extra field is a problem.
SPEC_PROPERTIES_MISSING_FROM_MODEL = {
    "Invocation": {
        "toolExecutionNotifications", "toolConfigurationNotifications", "ruleConfigurationOverrides",
        "notificationConfigurationOverrides", "exitCode", "exitCodeDescription", "exitSignalName",
        "exitSignalNumber", "processStartFailureMessage",
    },
    "Run": {"columnKind", "externalPropertyFileReferences", "threadFlowLocations", "taxonomies",
            "addresses", "translations", "policies", "webRequests", "webResponses", "specialLocations",
            "isShared"},
    "ToolDriver": {"guid", "product", "productSuite", "releaseDateUtc", "downloadUri", "organization",
                   "shortDescription", "fullDescription", "dottedQuadFileVersion", "globalMessageStrings",
                   "locations", "isComprehensive", "localizedDataSemanticVersion",
                   "minimumRequiredLocalizedDataSemanticVersion", "associatedComponent",
                   "translationMetadata", "supportedTaxonomies"},
    "ReportingDescriptor": {"guid", "deprecatedIds", "deprecatedGuids", "deprecatedNames", "messageStrings"},
    "Result": {"ruleIndex", "provenance", "baselineState", "webRequest", "webResponse", "taxa", "suppressions"},
    "Location": set(),
}


class Problems:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, where: str, text: str) -> None:
        self.items.append(f"{where}: {text}")


def unknown_properties(model, where: str, problems: Problems) -> None:
    """Reports extra (undeclared) fields anywhere in the loaded model."""
    from pydantic import BaseModel

    if isinstance(model, BaseModel):
        allowed = SPEC_PROPERTIES_MISSING_FROM_MODEL.get(type(model).__name__, set())
        for key in (model.model_extra or {}):
            if key not in allowed:
                problems.add(where, f"unknown property '{key}' in {type(model).__name__}")
        for name in type(model).model_fields:
            unknown_properties(getattr(model, name), f"{where}.{name}", problems)
    elif isinstance(model, list):
        for index, item in enumerate(model):
            unknown_properties(item, f"{where}[{index}]", problems)


def check_artifact(location: dict, base_ids: dict, where: str, problems: Problems) -> None:
    uri = location.get("uri")
    if not isinstance(uri, str) or not uri:
        problems.add(where, "artifactLocation without a uri")
        return
    if re.search(r"[\x00-\x20\x7f-\uffff]", uri):
        problems.add(where, f"uri {uri!r} has characters that must be percent-encoded")
    base = location.get("uriBaseId")
    parsed = urlparse(uri)
    if base is not None:
        if base not in base_ids:
            problems.add(where, f"uriBaseId {base!r} is not declared in run.originalUriBaseIds")
        if parsed.scheme:
            problems.add(where, f"uri {uri!r} has a uriBaseId but is absolute")
    elif parsed.scheme and parsed.scheme != "file":
        problems.add(where, f"absolute uri {uri!r} is not a file URI")
    elif parsed.scheme == "file" and not parsed.path.startswith("/"):
        problems.add(where, f"file uri {uri!r} has no absolute path")


def check_location(location: dict, base_ids: dict, where: str, problems: Problems) -> None:
    physical = location.get("physicalLocation")
    logical = location.get("logicalLocations")
    if not physical and not logical:
        problems.add(where, "location with neither a physical nor a logical location")
    if physical:
        artifact = physical.get("artifactLocation")
        if not artifact:
            problems.add(where, "physicalLocation without an artifactLocation")
        else:
            check_artifact(artifact, base_ids, f"{where}.physicalLocation.artifactLocation", problems)
        region = physical.get("region")
        if region is not None:
            line = region.get("startLine")
            if not isinstance(line, int) or line < 1:
                problems.add(where, f"region.startLine {line!r} is not a line number (>= 1)")
            column = region.get("startColumn")
            if column is not None and (not isinstance(column, int) or column < 1):
                problems.add(where, f"region.startColumn {column!r} is not a column number (>= 1)")
    for index, item in enumerate(logical or []):
        if not item.get("name") and not item.get("fullyQualifiedName"):
            problems.add(f"{where}.logicalLocations[{index}]", "logical location without a name")


def check_log(raw: dict, problems: Problems) -> int:
    """LoopHunter's promises; returns the number of results."""
    from sarif_pydantic.sarif import Notification
    from pydantic import ValidationError

    if raw.get("version") != "2.1.0":
        problems.add("$.version", f"{raw.get('version')!r}, expected '2.1.0'")
    if raw.get("$schema") != SCHEMA:
        problems.add("$.$schema", f"{raw.get('$schema')!r}, expected {SCHEMA!r}")
    runs = raw.get("runs") or []
    if len(runs) != 1:
        problems.add("$.runs", f"{len(runs)} runs, expected 1")
    count = 0
    for r, run in enumerate(runs):
        where = f"$.runs[{r}]"
        driver = run.get("tool", {}).get("driver", {})
        if driver.get("name") != "LoopHunter":
            problems.add(f"{where}.tool.driver.name", f"{driver.get('name')!r}, expected 'LoopHunter'")
        rules = driver.get("rules") or []
        ids = [rule.get("id") for rule in rules]
        if len(set(ids)) != len(ids):
            problems.add(f"{where}.tool.driver.rules", f"duplicate rule ids {ids}")
        for i, rule in enumerate(rules):
            level = rule.get("defaultConfiguration", {}).get("level")
            if level not in LEVELS:
                problems.add(f"{where}.tool.driver.rules[{i}]", f"default level {level!r} is not one of {sorted(LEVELS)}")
            for field in ("shortDescription", "fullDescription", "help"):
                if not (rule.get(field) or {}).get("text"):
                    problems.add(f"{where}.tool.driver.rules[{i}]", f"no {field}.text")
        base_ids = run.get("originalUriBaseIds") or {}
        for name, base in base_ids.items():
            uri = base.get("uri", "")
            if not uri.startswith("file:///") or not uri.endswith("/"):
                problems.add(f"{where}.originalUriBaseIds.{name}", f"{uri!r} is not an absolute file URI ending in '/'")
        invocations = run.get("invocations") or []
        if not invocations or invocations[0].get("executionSuccessful") is not True:
            problems.add(f"{where}.invocations", "no successful invocation")
        for i, invocation in enumerate(invocations):
            for n, note in enumerate(invocation.get("toolExecutionNotifications") or []):
                at = f"{where}.invocations[{i}].toolExecutionNotifications[{n}]"
                try:
                    Notification.model_validate(note)
                except ValidationError as error:
                    problems.add(at, f"not a SARIF notification: {error}")
                if note.get("level") not in LEVELS:
                    problems.add(at, f"level {note.get('level')!r} is not one of {sorted(LEVELS)}")
        if "results" not in run:
            problems.add(where, "no results array (an empty one means 'no findings')")
        for i, result in enumerate(run.get("results") or []):
            count += 1
            at = f"{where}.results[{i}]"
            rule_id = result.get("ruleId")
            if rule_id not in ids:
                problems.add(at, f"ruleId {rule_id!r} is not a rule of the driver ({ids})")
            index = result.get("ruleIndex")
            if index is not None and (not isinstance(index, int) or index >= len(ids) or ids[index] != rule_id):
                problems.add(at, f"ruleIndex {index!r} does not point at rule {rule_id!r}")
            if result.get("level") not in LEVELS:
                problems.add(at, f"level {result.get('level')!r} is not one of {sorted(LEVELS)}")
            if not (result.get("message") or {}).get("text"):
                problems.add(at, "no message.text")
            if not (result.get("partialFingerprints") or {}).get(FINGERPRINT):
                problems.add(at, f"no partialFingerprints[{FINGERPRINT!r}]")
            locations = result.get("locations") or []
            if not locations:
                problems.add(at, "no locations")
            for n, location in enumerate(locations):
                check_location(location, base_ids, f"{at}.locations[{n}]", problems)
            for n, location in enumerate(result.get("relatedLocations") or []):
                check_location(location, base_ids, f"{at}.relatedLocations[{n}]", problems)
            # result.suppressions (SARIF 2.1.0 3.27.23; the model does not declare it): checked here.
            suppressions = result.get("suppressions")
            if suppressions is not None and not isinstance(suppressions, list):
                problems.add(at, "suppressions is not an array")
            for n, suppression in enumerate(suppressions or []):
                here = f"{at}.suppressions[{n}]"
                if suppression.get("kind") not in ("inSource", "external"):
                    problems.add(here, f"kind {suppression.get('kind')!r} is not 'inSource' or 'external'")
                if suppression.get("status") not in (None, "accepted", "underReview", "rejected"):
                    problems.add(here, f"status {suppression.get('status')!r} is not a SARIF suppression status")
                if "justification" in suppression and not isinstance(suppression["justification"], str):
                    problems.add(here, "justification is not a string")
                unknown = set(suppression) - {"kind", "status", "justification", "location", "guid", "properties"}
                if unknown:
                    problems.add(here, f"unknown properties {sorted(unknown)}")
            for s, stack in enumerate(result.get("stacks") or []):
                for n, frame in enumerate(stack.get("frames") or []):
                    if "location" in frame:
                        check_location(frame["location"], base_ids, f"{at}.stacks[{s}].frames[{n}].location", problems)
    return count


def run_consumer(arguments: list[str], problems: Problems) -> str:
    sarif = Path(sys.executable).parent / "sarif"
    command = [str(sarif), *arguments]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as error:
        problems.add("sarif-tools", f"{' '.join(command)}: {error} (run scripts/setup-validators.sh)")
        return ""
    output = done.stdout + done.stderr
    if done.returncode != 0 or "Traceback" in output:
        problems.add("sarif-tools", f"{' '.join(command)} exited {done.returncode}:\n{output}")
    return done.stdout


def check_consumers(path: Path, raw: dict, results: int, problems: Problems) -> None:
    summary = run_consumer(["summary", str(path)], problems)
    counted = {level: int(n) for level, n in re.findall(r"^(error|warning|note): (\d+)$", summary, re.M)}
    levels: dict[str, int] = {}
    for run in raw.get("runs") or []:
        for result in run.get("results") or []:
            levels[result.get("level", "warning")] = levels.get(result.get("level", "warning"), 0) + 1
    for level in ("error", "warning", "note"):
        if counted.get(level, 0) != levels.get(level, 0):
            problems.add("sarif summary", f"counted {counted.get(level, 0)} {level} results, the file has "
                         f"{levels.get(level, 0)}:\n{summary}")
    run_consumer(["ls", str(path)], problems)
    with tempfile.TemporaryDirectory() as scratch:
        csv_path = Path(scratch) / "out.csv"
        run_consumer(["csv", "--output", str(csv_path), str(path)], problems)
        if csv_path.exists():
            rows = [line for line in csv_path.read_text(encoding="utf-8", errors="replace").splitlines() if line]
            if results and len(rows) < 2:
                problems.add("sarif csv", f"wrote {len(rows)} lines for {results} results")
        elif results:
            problems.add("sarif csv", "wrote no file")
        run_consumer(["codeclimate", "--output", str(Path(scratch) / "cc.json"), str(path)], problems)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    path = Path(argv[1])
    problems = Problems()
    try:
        text = path.read_text(encoding="utf-8")
        raw = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        print(f"{path}: not a readable JSON file: {error}", file=sys.stderr)
        return 1
    try:
        from pydantic import ValidationError
        from sarif_pydantic import Sarif
    except ImportError as error:
        print(f"{error}: run scripts/setup-validators.sh and use .build/validators-venv/bin/python", file=sys.stderr)
        return 1
    try:
        model = Sarif.model_validate(raw)
    except ValidationError as error:
        print(f"{path}: does not load into the SARIF 2.1.0 object model (sarif-pydantic):\n{error}", file=sys.stderr)
        return 1
    unknown_properties(model, "$", problems)
    results = check_log(raw, problems)
    check_consumers(path, raw, results, problems)
    if problems.items:
        print(f"{path}: {len(problems.items)} problem(s):", file=sys.stderr)
        for item in problems.items:
            print(f"  {item}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
