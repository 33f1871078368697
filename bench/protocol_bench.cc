// The load path's per-request protocol work: scanning pipelined replies and encoding requests.
#include <benchmark/benchmark.h>

#include <string>

#include "protocol/memcache_text.h"
#include "protocol/numbered_key_encoder.h"
#include "protocol/resp_encoder.h"
#include "protocol/resp_parser.h"

namespace dfbench::protocol {
namespace {

constexpr int kPipeline = 30;
constexpr size_t kValueSize = 256;

std::string Repeat(const std::string& reply, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += reply;
  return out;
}

std::string GetReply() {
  return std::string("$256\r\n") + std::string(kValueSize, 'v') + "\r\n";
}

// Scans one pipeline's replies per iteration; items = replies.
template <class Scanner>
void ScanPipeline(benchmark::State& state, const std::string& stream, size_t chunk) {
  Scanner scanner;
  int64_t replies = 0;
  for (auto _ : state) {
    for (size_t pos = 0; pos < stream.size(); pos += chunk) {
      const ScanResult r = scanner.Scan(
          std::string_view(stream).substr(pos, chunk),
          [&](ReplyKind kind, std::string_view) { replies += kind != ReplyKind::kError; });
      benchmark::DoNotOptimize(r);
    }
  }
  if (replies != static_cast<int64_t>(state.iterations()) * kPipeline) {
    state.SkipWithError("wrong reply count");
  }
  state.SetItemsProcessed(replies);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * stream.size()));
}

void BM_RespScanGetPipeline(benchmark::State& state) {
  const std::string stream = Repeat(GetReply(), kPipeline);
  ScanPipeline<RespScanner>(state, stream, stream.size());
}
BENCHMARK(BM_RespScanGetPipeline);

// The same bytes arriving in 1448-byte reads (one TCP segment each), replies split across them.
void BM_RespScanGetPipelineSegments(benchmark::State& state) {
  const std::string stream = Repeat(GetReply(), kPipeline);
  ScanPipeline<RespScanner>(state, stream, 1448);
}
BENCHMARK(BM_RespScanGetPipelineSegments);

void BM_RespScanOkPipeline(benchmark::State& state) {
  ScanPipeline<RespScanner>(state, Repeat("+OK\r\n", kPipeline), SIZE_MAX);
}
BENCHMARK(BM_RespScanOkPipeline);

void BM_MemcacheScanGetPipeline(benchmark::State& state) {
  const std::string hit =
      std::string("VALUE memtier-1234567 0 256\r\n") + std::string(kValueSize, 'v') + "\r\nEND\r\n";
  ScanPipeline<MemcacheScanner>(state, Repeat(hit, kPipeline), SIZE_MAX);
}
BENCHMARK(BM_MemcacheScanGetPipeline);

void BM_MemcacheScanStoredPipeline(benchmark::State& state) {
  ScanPipeline<MemcacheScanner>(state, Repeat("STORED\r\n", kPipeline), SIZE_MAX);
}
BENCHMARK(BM_MemcacheScanStoredPipeline);

// The materialising parser, for comparison (control traffic only).
void BM_ParseReplyGet(benchmark::State& state) {
  const std::string reply = GetReply();
  for (auto _ : state) {
    Reply out;
    size_t consumed = 0;
    benchmark::DoNotOptimize(ParseReply(reply, &consumed, &out));
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_ParseReplyGet);

void BM_TemplateEncodeSet(benchmark::State& state) {
  const CommandTemplate t = *CommandTemplate::Compile("SET __key__ __data__");
  const std::string value(kValueSize, 'v');
  std::string out;
  out.reserve(1024);
  for (auto _ : state) {
    out.clear();
    t.Encode(&out, "memtier-1234567", value);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_TemplateEncodeSet);

void BM_MemcacheEncodeSet(benchmark::State& state) {
  const std::string value(kValueSize, 'v');
  std::string out;
  out.reserve(1024);
  for (auto _ : state) {
    out.clear();
    AppendMemcacheSet(&out, "memtier-1234567", value);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_MemcacheEncodeSet);

// The load path's encoder (NumberedKeyEncoder) over a pipeline of requests into one buffer, as
// a connection's are written; `command` is "GET __key__" or "SET __key__ __data__".
// items = requests.
void EncodeNumberedPipeline(benchmark::State& state, const char* command) {
  const CommandTemplate t = *CommandTemplate::Compile(command);
  const NumberedKeyEncoder encoder = NumberedKeyEncoder::ForTemplate(t, "memtier-", kValueSize);
  const std::string value(kValueSize, 'v');
  RequestBuffer out;
  out.reserve(kPipeline * 400);
  uint64_t number = 1;
  for (auto _ : state) {
    out.clear();
    for (int i = 0; i < kPipeline; ++i) {
      encoder.Encode(&out, number, value);
      number = number * 6364136223846793005u % 100000 + 1;
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * kPipeline);
}
void BM_NumberedEncodeGetPipeline(benchmark::State& state) {
  EncodeNumberedPipeline(state, "GET __key__");
}
BENCHMARK(BM_NumberedEncodeGetPipeline);
void BM_NumberedEncodeSetPipeline(benchmark::State& state) {
  EncodeNumberedPipeline(state, "SET __key__ __data__");
}
BENCHMARK(BM_NumberedEncodeSetPipeline);

}  // namespace
}  // namespace dfbench::protocol
