// The mix built from a MONITOR capture (__monitor_lineN__, __monitor_line@__) and from
// --scan-incremental-iteration: its slots, and the bytes each request is written as.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "loadgen/workload.h"
#include "protocol/resp_encoder.h"

namespace dfbench::loadgen {
namespace {

Config Captured(std::vector<std::string> commands) {
  Config c;
  c.monitor_input = "capture.txt";
  c.monitor_commands = {{.args = {"SET", "k1", "__key__"}, .file_line = 2},
                        {.args = {"rpush", "l", "a b"}, .file_line = 3},
                        {.args = {"set", "k2", "v"}, .file_line = 5}};
  for (auto& text : commands) c.commands.push_back(CommandConfig{.text = std::move(text)});
  return c;
}

std::string Resp(const std::vector<std::string_view>& args) {
  std::string out;
  protocol::AppendCommand(&out, args);
  return out;
}

std::string Next(ClientWorkload& client, uint16_t* slot) {
  protocol::RequestBuffer out;
  const Request r = client.Draw();
  client.Encode(r, &out);
  *slot = r.slot;
  return std::string(out.view());
}

TEST(ReplayWorkload, AMonitorLinePlaceholderSendsThatCommandAsCaptured) {
  const Config c = Captured({"__monitor_line2__", "__monitor_line1__"});
  ASSERT_TRUE(Validate(c));
  auto w = BuildWorkload(c);
  ASSERT_TRUE(w) << w.error().message;
  ASSERT_EQ(w->slots.size(), 2u);
  EXPECT_EQ(w->slots[0].type, "RPUSH");
  EXPECT_EQ(w->slots[0].section, "Rpushs");
  EXPECT_EQ(w->slots[1].type, "SET");
  ClientWorkload client(c, *w, 0, 0);
  uint16_t slot = 0;
  EXPECT_EQ(Next(client, &slot), Resp({"rpush", "l", "a b"}));
  EXPECT_EQ(slot, 0);
  // A captured __key__ is a captured argument like any other.
  EXPECT_EQ(Next(client, &slot), Resp({"SET", "k1", "__key__"}));
  EXPECT_EQ(slot, 1);
}

TEST(ReplayWorkload, ByLineAMonitorLineRowIsNamedByItsPlace) {
  Config c = Captured({"__monitor_line2__"});
  c.stats_breakdown = StatsBreakdown::kLine;
  auto w = BuildWorkload(c);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->slots[0].section, "Rpush (line 2)s");
  EXPECT_EQ(w->slots[0].type, "RPUSH");
}

TEST(ReplayWorkload, TheAnyPlaceholderReplaysTheCaptureInTurnCountedByCommand) {
  const Config c = Captured({"__monitor_line@__"});
  auto w = BuildWorkload(c);
  ASSERT_TRUE(w) << w.error().message;
  ASSERT_EQ(w->slots.size(), 3u);  // the placeholder, then SET and RPUSH
  EXPECT_EQ(w->slots[0].kind, Slot::Kind::kReplay);
  EXPECT_EQ(w->slots[1].type, "SET");
  EXPECT_EQ(w->slots[2].type, "RPUSH");
  ClientWorkload a(c, *w, 0, 0);
  ClientWorkload b(c, *w, 1, 0);
  uint16_t slot = 0;
  // One sequence for every client, as memtier keeps one.
  EXPECT_EQ(Next(a, &slot), Resp({"SET", "k1", "__key__"}));
  EXPECT_EQ(slot, 1);
  EXPECT_EQ(Next(b, &slot), Resp({"rpush", "l", "a b"}));
  EXPECT_EQ(slot, 2);
  EXPECT_EQ(Next(a, &slot), Resp({"set", "k2", "v"}));
  EXPECT_EQ(slot, 1);
  EXPECT_EQ(Next(a, &slot), Resp({"SET", "k1", "__key__"}));
}

TEST(ReplayWorkload, AtRandomEveryCapturedCommandIsSent) {
  Config c = Captured({"__monitor_line@__"});
  c.monitor_random = true;
  auto w = BuildWorkload(c);
  ASSERT_TRUE(w);
  ClientWorkload client(c, *w, 0, 0);
  std::vector<int> seen(3, 0);
  for (int i = 0; i < 300; ++i) {
    const Request r = client.Draw();
    ASSERT_LT(r.key_index, 3u);
    ++seen[r.key_index];
  }
  for (int count : seen) EXPECT_GT(count, 0);
}

TEST(ReplayWorkload, RefusesAPlaceholderOutOfTheCapture) {
  const auto st = Validate(Captured({"__monitor_line4__"}));
  ASSERT_FALSE(st);
  EXPECT_EQ(st.error().message,
            "--command: invalid monitor placeholder '__monitor_line4__' (valid range: "
            "__monitor_line1__ to __monitor_line3__ or __monitor_line@__)");
}

TEST(ReplayWorkload, AScanWalkSendsTheCursorOfTheLastReply) {
  Config c;
  c.commands = {CommandConfig{.text = "SCAN 0 MATCH k* COUNT 10"}};
  c.scan_incremental = true;
  ASSERT_TRUE(Validate(c));
  auto w = BuildWorkload(c);
  ASSERT_TRUE(w);
  ASSERT_EQ(w->slots.size(), 2u);
  EXPECT_EQ(w->slots[0].section, "Scan 0s");
  EXPECT_EQ(w->slots[1].section, "Scan <cursor>s");
  ClientWorkload client(c, *w, 0, 0);
  uint16_t slot = 0;
  EXPECT_EQ(Next(client, &slot), Resp({"SCAN", "0", "MATCH", "k*", "COUNT", "10"}));
  EXPECT_EQ(slot, 0);
  client.scan()->Feed("*2\r\n$2\r\n17\r\n*0\r\n");
  client.scan()->TakeReplies();
  EXPECT_EQ(Next(client, &slot), Resp({"SCAN", "17", "MATCH", "k*", "COUNT", "10"}));
  EXPECT_EQ(slot, 1);
  client.scan()->Feed("*2\r\n$1\r\n0\r\n*0\r\n");
  client.scan()->TakeReplies();
  EXPECT_EQ(Next(client, &slot), Resp({"SCAN", "0", "MATCH", "k*", "COUNT", "10"}));
  EXPECT_EQ(slot, 0);
}

TEST(ReplayWorkload, RefusesAScanWalkMemtierRefuses) {
  Config c;
  c.scan_incremental = true;
  auto message = [&] { return Validate(c).error().message; };
  EXPECT_EQ(message(), "--scan-incremental-iteration requires --command with a SCAN command");
  c.commands = {CommandConfig{.text = "GET x"}};
  EXPECT_EQ(message(), "--scan-incremental-iteration requires the command to be a SCAN command");
  c.commands = {CommandConfig{.text = "SCAN"}};
  EXPECT_EQ(message(),
            "--scan-incremental-iteration needs a SCAN with at least a cursor argument (e.g. "
            "'SCAN 0')");
  c.commands = {CommandConfig{.text = "SCAN 0"}, CommandConfig{.text = "SCAN 0"}};
  EXPECT_EQ(message(),
            "--scan-incremental-iteration requires exactly one --command (a SCAN command)");
  c.commands = {CommandConfig{.text = "scan 0"}};
  c.load.pipeline = 2;
  EXPECT_EQ(message(), "--scan-incremental-iteration requires --pipeline 1");
}

}  // namespace
}  // namespace dfbench::loadgen
