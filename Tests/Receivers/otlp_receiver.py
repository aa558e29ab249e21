#!/usr/bin/env python3
"""A test collector for `loophunter ship`: an OTLP/HTTP logs receiver, or a plain JSON endpoint,
that can be told to misbehave.

OTLP mode decodes every request body with the official `opentelemetry-proto` package, in the
encoding its Content-Type names (anything else is answered 415 and logged as an error):
  application/x-protobuf  the binary encoding: ExportLogsServiceRequest.ParseFromString, with
                          unknown fields refused; errors are answered with a google.rpc.Status
                          (protobuf), as OTLP/HTTP says
  application/json        the OTLP/JSON encoding: protobuf's json_format, unknown fields refused,
                          and on top what proto3's JSON parser forgives but OTLP/JSON forbids:
                          snake_case field names, 64-bit integers as numbers instead of strings,
                          enums as names instead of numbers
Both then go through the same checks of the decoded message (the attributes every record and
resource must carry). A body that fails any of it is answered 400 and logged as an error, so
malformed OTLP fails the test that reads the log.

JSON mode takes one LoopHunter report per request and checks that the Idempotency-Key header is
the report's id.

Every request is one line of the JSON-lines log (--log): its number, the status answered, the ids
it carried (OTLP: the log.record.uid attribute), the OTLP encoding, whether it was gzipped, errors,
the token header. With --keep-records the line also holds every decoded record (json_format's
dict of the LogRecord, and its resource's attributes), so a test can compare what two encodings
delivered.

--discard makes it the collector a benchmark needs: it reads each body and answers 200 with an
empty ExportLogsServiceResponse (or {"ok":true} in JSON mode), decoding nothing.
A request's ids count as accepted when the status is 2xx (and for a "stall", which commits, then
answers too late).

--script gives the answers to the first requests, in order, comma-separated; every later request
is handled normally:
    ok            handle it
    429:ra=N      429 with Retry-After: N (seconds)
    503:date=N    503 with Retry-After: an HTTP-date N seconds ahead
    500 / 502 / 504 / 401 / 404 ...   that status
    400           400 with a message
    reset         read the request, then reset the connection (no answer)
    stall=N       accept the ids, then wait N seconds before answering (beyond the client's timeout)
--poison ID,...   any request carrying one of these ids is answered 400 (naming it), always.
"""
import argparse
import email.utils
import gzip
import json
import os
import re
import socket
import ssl
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf import json_format
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import (ExportLogsServiceRequest,
                                                                    ExportLogsServiceResponse)

PROTOBUF = "application/x-protobuf"
JSON = "application/json"

INT64_FIELDS = {"timeUnixNano", "observedTimeUnixNano", "intValue"}
REQUIRED_RESOURCE = {"service.name", "host.name", "process.pid"}
REQUIRED_RECORD = {"log.record.uid", "loophunter.kind", "loophunter.hook", "loophunter.object.type",
                   "loophunter.object.path", "loophunter.count", "loophunter.threshold", "loophunter.fingerprint",
                   "process.pid", "thread.id", "thread.name", "loophunter.frames"}


class Malformed(Exception):
    pass


def check_otlp_json(node, path="$"):
    """What json_format accepts but OTLP/JSON does not allow."""
    if isinstance(node, dict):
        for key, value in node.items():
            if "_" in key:
                raise Malformed(f"{path}.{key}: OTLP/JSON field names are lowerCamelCase")
            if key in INT64_FIELDS and not (isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value)):
                raise Malformed(f"{path}.{key}: a 64-bit integer must be a decimal string, got {value!r}")
            if key == "severityNumber" and not isinstance(value, int):
                raise Malformed(f"{path}.severityNumber: enums are numbers in OTLP/JSON, got {value!r}")
            check_otlp_json(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            check_otlp_json(value, f"{path}[{i}]")


def parse_otlp_json(raw):
    """The OTLP/JSON body as an ExportLogsServiceRequest; raises Malformed."""
    try:
        document = json.loads(raw)
    except ValueError as error:
        raise Malformed(f"not JSON: {error}")
    check_otlp_json(document)
    message = ExportLogsServiceRequest()
    try:
        json_format.Parse(raw, message, ignore_unknown_fields=False)
    except json_format.ParseError as error:
        raise Malformed(f"not an ExportLogsServiceRequest: {error}")
    return message


def parse_otlp_protobuf(raw):
    """The binary protobuf body as an ExportLogsServiceRequest; raises Malformed."""
    message = ExportLogsServiceRequest()
    try:
        message.ParseFromString(raw)
    except DecodeError as error:
        raise Malformed(f"not an ExportLogsServiceRequest (protobuf): {error}")
    # Fields the official definitions do not have are kept as unknown fields: refuse them, as
    # the JSON parser does.
    known = ExportLogsServiceRequest()
    known.CopyFrom(message)
    known.DiscardUnknownFields()
    if known.ByteSize() != message.ByteSize():
        raise Malformed("unknown fields in the ExportLogsServiceRequest (not in the official .proto files)")
    return message


def check_otlp(message, keep_records=False):
    """Returns the ids of the records (and, with keep_records, each record decoded); raises Malformed."""
    ids = []
    records = []
    if not message.resource_logs:
        raise Malformed("no resourceLogs")
    for resource_logs in message.resource_logs:
        resource = {kv.key for kv in resource_logs.resource.attributes}
        if not REQUIRED_RESOURCE <= resource:
            raise Malformed(f"resource attributes miss {sorted(REQUIRED_RESOURCE - resource)}")
        for scope_logs in resource_logs.scope_logs:
            if scope_logs.scope.name != "loophunter" or not scope_logs.scope.version:
                raise Malformed(f"the instrumentation scope is {scope_logs.scope.name!r} {scope_logs.scope.version!r}")
            for record in scope_logs.log_records:
                attributes = {kv.key: kv.value for kv in record.attributes}
                if not REQUIRED_RECORD <= set(attributes):
                    raise Malformed(f"record attributes miss {sorted(REQUIRED_RECORD - set(attributes))}")
                if len(attributes) != len(record.attributes):
                    raise Malformed("an attribute key is repeated")
                if record.time_unix_nano == 0 or record.severity_number == 0 or not record.body.string_value:
                    raise Malformed("a record without time, severity or body")
                if "\n" in record.body.string_value:
                    raise Malformed("the body is not one line")
                if not attributes["loophunter.frames"].HasField("array_value"):
                    raise Malformed("loophunter.frames is not an array")
                for key, value in attributes.items():
                    if value.WhichOneof("value") is None:
                        raise Malformed(f"attribute {key} has no value")
                ids.append(attributes["log.record.uid"].string_value)
                if keep_records:
                    records.append({
                        "resource": json_format.MessageToDict(resource_logs.resource),
                        "scope": json_format.MessageToDict(scope_logs.scope),
                        "record": json_format.MessageToDict(record),
                    })
    return ids, records


def decode_json(raw, headers):
    try:
        document = json.loads(raw)
    except ValueError as error:
        raise Malformed(f"not JSON: {error}")
    if not isinstance(document, dict) or document.get("schema") != "loophunter/report" or "id" not in document:
        raise Malformed("not a LoopHunter report")
    key = headers.get("Idempotency-Key")
    if key != document["id"]:
        raise Malformed(f"Idempotency-Key {key!r} is not the report's id {document['id']!r}")
    return [document["id"]]


def rpc_status(code, text):
    """A google.rpc.Status in the binary encoding: field 1 code (varint), field 2 message (string)."""
    def varint(n):
        out = bytearray()
        while True:
            byte = n & 0x7F
            n >>= 7
            out.append(byte | (0x80 if n else 0))
            if not n:
                return bytes(out)
    message = text.encode()
    return b"\x08" + varint(code) + b"\x12" + varint(len(message)) + message


class Collector:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.count = 0
        self.script = [s for s in (args.script or "").split(",") if s]
        self.poison = set(p for p in (args.poison or "").split(",") if p)
        self.log = open(args.log, "a", buffering=1) if args.log else None

    def next_number(self):
        with self.lock:
            self.count += 1
            return self.count

    def record(self, entry):
        if self.log:
            with self.lock:
                self.log.write(json.dumps(entry) + "\n")


def make_handler(collector):
    args = collector.args

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # The status line and headers, then the body, are two writes: with Nagle's algorithm the
        # second waits for the client's delayed ACK (40 ms a request on keep-alive connections).
        disable_nagle_algorithm = True

        def log_message(self, *_):
            pass

        def handle(self):
            # A shipper killed mid-connection (the kill -9 tests) resets it: nothing to answer.
            try:
                super().handle()
            except (ConnectionResetError, BrokenPipeError):
                self.close_connection = True

        def answer(self, status, body=b"", headers=(), content_type=None):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            if content_type is None:
                content_type = JSON if body.startswith(b"{") else "text/plain"
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                self.wfile.write(body)
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                # The shipper went away (killed) before reading the answer: what was recorded
                # stands; it will send the same reports again, which de-duplication absorbs.
                self.close_connection = True

        def answer_ok(self, encoding, headers=()):
            """200 with an empty ExportLogsServiceResponse in the request's encoding."""
            if encoding == "protobuf":
                return self.answer(200, ExportLogsServiceResponse().SerializeToString(), headers, PROTOBUF)
            return self.answer(200, b"{}" if args.mode == "otlp" else b'{"ok":true}', headers)

        def answer_error(self, status, text, encoding, headers=(), as_json=False):
            """An error: a google.rpc.Status to a protobuf request (OTLP/HTTP), else text or JSON."""
            if encoding == "protobuf":
                code = {400: 3, 401: 16, 403: 7, 404: 5, 429: 8, 500: 13, 501: 12, 503: 14, 504: 4}.get(status, 2)
                return self.answer(status, rpc_status(code, text), headers, PROTOBUF)
            if as_json:
                return self.answer(status, json.dumps({"error": text}).encode(), headers)
            return self.answer(status, text.encode(), headers)

        def do_POST(self):
            number = collector.next_number()
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            entry = {"n": number, "path": self.path, "gzip": self.headers.get("Content-Encoding") == "gzip",
                     "bytes": len(body), "auth": self.headers.get(args.token_header)}
            content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
            encoding = None
            if args.mode == "otlp":
                encoding = {PROTOBUF: "protobuf", JSON: "json"}.get(content_type)
                entry["encoding"] = encoding or content_type
            if len(body) < length:
                # The shipper died in the middle of its request: nothing was delivered, and that
                # is not a malformed body (no complete request was ever sent).
                entry["status"] = "client-gone"
                collector.record(entry)
                self.close_connection = True
                return
            if args.discard:
                entry.update(step="ok", status=200)
                collector.record(entry)
                return self.answer_ok(encoding)
            step = collector.script[number - 1] if number <= len(collector.script) else "ok"
            entry["step"] = step
            if args.delay:
                time.sleep(args.delay)
            if step == "reset":
                entry["status"] = "reset"
                collector.record(entry)
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.close_connection = True
                self.connection.close()
                return
            if args.mode == "otlp" and encoding is None:
                entry.update(status=415, error=f"Content-Type {content_type!r} is neither {PROTOBUF} nor {JSON}")
                collector.record(entry)
                return self.answer(415, f"OTLP/HTTP takes {PROTOBUF} or {JSON}\n".encode())
            if entry["gzip"]:
                if args.no_gzip:
                    entry["status"] = 415
                    collector.record(entry)
                    return self.answer(415, b"gzip is not accepted here", [("Accept-Encoding", "identity")])
                try:
                    body = gzip.decompress(body)
                except OSError as error:
                    entry.update(status=400, error=f"bad gzip: {error}")
                    collector.record(entry)
                    return self.answer_error(400, "bad gzip", encoding)
            if args.canary and args.canary.encode() in body:
                entry["canary_in_body"] = True
            if args.token and self.headers.get(args.token_header) != args.token_value:
                entry["status"] = 401
                collector.record(entry)
                return self.answer_error(401, "missing or wrong token", encoding)
            try:
                if args.mode == "otlp":
                    message = parse_otlp_protobuf(body) if encoding == "protobuf" else parse_otlp_json(body)
                    ids, records = check_otlp(message, keep_records=args.keep_records)
                    if args.keep_records:
                        entry["records"] = records
                else:
                    ids = decode_json(body, self.headers)
            except Malformed as error:
                entry.update(status=400, error=str(error))
                collector.record(entry)
                return self.answer_error(400, str(error), encoding, as_json=True)
            entry["ids"] = ids
            poisoned = sorted(collector.poison.intersection(ids))
            if poisoned:
                entry["status"] = 400
                collector.record(entry)
                return self.answer_error(400, f"report {poisoned[0]} is refused: poison for this test\n", encoding)
            status, headers = 200, []
            if step.startswith("429"):
                status = 429
                seconds = step.split("ra=")[1] if "ra=" in step else "1"
                headers.append(("Retry-After", seconds))
            elif step.startswith("503"):
                status = 503
                ahead = float(step.split("date=")[1]) if "date=" in step else 1
                headers.append(("Retry-After", email.utils.formatdate(time.time() + ahead, usegmt=True)))
            elif step.startswith("stall"):
                entry["status"] = 200
                entry["stalled"] = True
                collector.record(entry)
                time.sleep(float(step.split("=")[1]) if "=" in step else 5)
                try:
                    self.answer_ok(encoding)
                except OSError:
                    pass
                return
            elif step.isdigit():
                status = int(step)
            elif step != "ok":
                raise SystemExit(f"unknown script step {step!r}")
            if args.accept_encoding:
                headers.append(("Accept-Encoding", args.accept_encoding))
            entry["status"] = status
            collector.record(entry)
            if status == 200:
                return self.answer_ok(encoding, headers)
            return self.answer_error(status, f"scripted {status} for request {number}\n", encoding, headers)

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=["otlp", "json"], default="otlp")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", help="write the port here once listening")
    parser.add_argument("--log", help="JSON-lines log of every request")
    parser.add_argument("--script")
    parser.add_argument("--poison")
    parser.add_argument("--delay", type=float, default=0, help="seconds before handling each request")
    parser.add_argument("--no-gzip", action="store_true", help="answer 415 to gzipped bodies")
    parser.add_argument("--accept-encoding", help="advertise this Accept-Encoding in answers (RFC 7694)")
    parser.add_argument("--token", help="require this token (as 'Bearer TOKEN' in Authorization)")
    parser.add_argument("--token-header", default="Authorization")
    parser.add_argument("--canary", help="flag request bodies that contain this string")
    parser.add_argument("--keep-records", action="store_true", help="log every decoded record (OTLP)")
    parser.add_argument("--discard", action="store_true",
                        help="read each body and answer 200 at once, decoding nothing (for benchmarks)")
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--lifetime", type=float, default=600, help="exit after this many seconds")
    args = parser.parse_args()
    args.token_value = None
    if args.token:
        args.token_value = f"Bearer {args.token}" if args.token_header.lower() == "authorization" else args.token

    collector = Collector(args)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(collector))
    server.daemon_threads = True
    if args.tls_cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert, args.tls_key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    if args.port_file:
        temporary = args.port_file + ".tmp"
        with open(temporary, "w") as f:
            f.write(str(server.server_address[1]))
        os.rename(temporary, args.port_file)
    # Bounded: a test that forgets to stop it does not leave it running.
    threading.Timer(args.lifetime, lambda: os._exit(0)).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
