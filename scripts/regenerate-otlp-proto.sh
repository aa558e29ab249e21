#!/usr/bin/env bash
# Regenerates the Swift code of the OTLP logs messages that `loophunter ship` encodes with
# protobuf (Sources/LoopHunterShip/Encoding/OTLP/Generated/*.pb.swift) from the official
# opentelemetry-proto .proto files, with protoc and swift-protobuf's protoc-gen-swift. The
# generated files are committed: a build never runs this (the plugin alone takes a while to build).
#
# Usage: scripts/regenerate-otlp-proto.sh
#   OTLP_PROTO_DIR=dir     a checkout of opentelemetry-proto at $OTLP_PROTO_TAG (default: cloned
#                          into a scratch directory)
#   OTLP_PROTO_TAG=tag     the opentelemetry-proto release (default v1.11.0)
#   PROTOC_GEN_SWIFT=path  a protoc-gen-swift of swift-protobuf $SWIFT_PROTOBUF_VERSION (default:
#                          built in a scratch directory outside the repository)
# Needs protoc (apt-get install -y protobuf-compiler) and git. Rewrites the generated folder's
# *.pb.swift files; check `git diff` afterwards (and the versions in its README.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/Sources/LoopHunterShip/Encoding/OTLP/Generated
tag=${OTLP_PROTO_TAG:-v1.11.0}
swift_protobuf=1.39.0

if ! command -v protoc >/dev/null 2>&1; then
  echo "regenerate-otlp-proto: protoc is not installed; install it with: apt-get install -y protobuf-compiler" >&2
  exit 1
fi

scratch=$(mktemp -d /tmp/loophunter-otlp-proto.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

proto=${OTLP_PROTO_DIR:-}
if [ -z "$proto" ]; then
  git clone --quiet --depth 1 --branch "$tag" https://github.com/open-telemetry/opentelemetry-proto "$scratch/opentelemetry-proto"
  proto=$scratch/opentelemetry-proto
fi

plugin=${PROTOC_GEN_SWIFT:-}
if [ -z "$plugin" ]; then
  git clone --quiet --depth 1 --branch "$swift_protobuf" https://github.com/apple/swift-protobuf "$scratch/swift-protobuf"
  (cd "$scratch/swift-protobuf" && swift build -c release --product protoc-gen-swift >/dev/null)
  plugin=$scratch/swift-protobuf/.build/release/protoc-gen-swift
fi
if [ "$("$plugin" --version)" != "protoc-gen-swift $swift_protobuf" ]; then
  echo "regenerate-otlp-proto: $plugin is $("$plugin" --version), not protoc-gen-swift $swift_protobuf (the version Package.swift pins)" >&2
  exit 1
fi

# Only what an ExportLogsServiceRequest needs: the logs service, the logs, the resource and the
# common messages.
rm -f "$out"/*.pb.swift
protoc --plugin=protoc-gen-swift="$plugin" \
  --proto_path="$proto" \
  --swift_opt=FileNaming=DropPath --swift_opt=Visibility=Internal \
  --swift_out="$out" \
  opentelemetry/proto/common/v1/common.proto \
  opentelemetry/proto/resource/v1/resource.proto \
  opentelemetry/proto/logs/v1/logs.proto \
  opentelemetry/proto/collector/logs/v1/logs_service.proto
echo "regenerated $(cd "$out" && ls ./*.pb.swift | tr '\n' ' ')from opentelemetry-proto $tag with $("$plugin" --version) and $(protoc --version)"
