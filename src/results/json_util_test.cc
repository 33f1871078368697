#include "results/json_util.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <optional>

#include "results/json_fields.h"

namespace dfbench::results {
namespace {

TEST(JsonReader, MissingAndNullFieldsKeepDefaults) {
  std::string error;
  const auto j = nlohmann::json::parse(R"({"b": null})");
  JsonReader r(j, "", &error);
  int a = 7;
  std::string b = "x";
  r.Field("a", &a);
  r.Field("b", &b);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(a, 7);
  EXPECT_EQ(b, "x");
}

TEST(JsonReader, FirstErrorWins) {
  std::string error;
  const auto j = nlohmann::json::parse(R"({"a": "1", "b": "2", "c": 3})");
  JsonReader r(j, "root", &error);
  int a = 0, b = 0, c = 0;
  r.Field("a", &a);
  r.Field("b", &b);
  r.Field("c", &c);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(error, "root.a: expected an integer");
  EXPECT_EQ(c, 0);  // reads after an error do nothing
}

TEST(JsonReader, IntegerRangesAreChecked) {
  std::string error;
  int i = 0;
  uint64_t u = 0;
  EXPECT_FALSE(JsonReader::Value(nlohmann::json(int64_t{1} << 40), "i", &i, &error));
  EXPECT_EQ(error, "i: expected an integer");
  EXPECT_TRUE(JsonReader::Value(nlohmann::json(-5), "i", &i, &error));
  EXPECT_EQ(i, -5);
  EXPECT_TRUE(
      JsonReader::Value(nlohmann::json(std::numeric_limits<uint64_t>::max()), "u", &u, &error));
  EXPECT_EQ(u, std::numeric_limits<uint64_t>::max());
  EXPECT_FALSE(JsonReader::Value(nlohmann::json(-1.0), "u", &u, &error));
  EXPECT_FALSE(JsonReader::Value(nlohmann::json(1e300), "u", &u, &error));
  EXPECT_TRUE(JsonReader::Value(nlohmann::json(1e6), "u", &u, &error));
  EXPECT_EQ(u, 1000000u);
}

TEST(JsonNumber, WholeValuesBecomeIntegers) {
  EXPECT_EQ(JsonNumber(2646502.0).dump(), "2646502");
  EXPECT_EQ(JsonNumber(-3.0).dump(), "-3");
  EXPECT_EQ(JsonNumber(4.6).dump(), "4.6");
  EXPECT_EQ(JsonNumber(1e300).dump(), "1e+300");
}

TEST(Ordered, ListedKeysFirstThenAlphabetical) {
  const auto j = nlohmann::json::parse(
      R"({"zeta": 1, "b": 2, "a": [{"y": 1, "x": 2, "k": 3}], "c": {"q": 1, "p": 2}})");
  const KeyOrder order = {{"", {"zeta", "b"}}, {"a", {"y"}}};
  EXPECT_EQ(Ordered(j, order).dump(),
            R"({"zeta":1,"b":2,"a":[{"y":1,"k":3,"x":2}],"c":{"p":2,"q":1}})");
}

TEST(DumpPretty, IndentsAndEndsWithNewlineAndSurvivesBadUtf8) {
  nlohmann::ordered_json j = {{"a", 1}, {"s", std::string("bad\xff")}};
  EXPECT_EQ(DumpPretty(j), "{\n  \"a\": 1,\n  \"s\": \"bad\xEF\xBF\xBD\"\n}\n");
}

TEST(ParseJson, ReportsMalformedTextAsUsageError) {
  auto ok = ParseJson(R"({"a": 1})");
  ASSERT_TRUE(ok);
  EXPECT_EQ((*ok)["a"], 1);
  auto bad = ParseJson("{\"a\": ");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().kind, core::ErrorKind::kUsage);
  EXPECT_EQ(bad.error().message.rfind("malformed JSON: parse error at line 1", 0), 0u)
      << bad.error().message;
}

namespace map_fields {

// A record keyed by name, as state.json's installs are.
struct Install {
  std::string method;
  int tries = 0;
};
struct Installs {
  std::map<std::string, Install> by_engine;
  std::optional<std::map<std::string, int>> counts;
};
void Fields(auto& v, FieldsOf<Install> auto& x) {
  DFBENCH_FIELDS(method, tries)
}
void Fields(auto& v,
            FieldsOf<Installs> auto& x){DFBENCH_FIELDS(by_engine) DFBENCH_OPTIONAL_FIELDS(counts)}

TEST(JsonFields, MapsByNameAreObjectsBothWays) {
  const Installs in{.by_engine = {{"redis", {"apt", 1}}, {"dragonfly", {"release", 2}}},
                    .counts = std::map<std::string, int>{{"a", 3}}};
  const nlohmann::json j = ToJson(in);
  EXPECT_EQ(j, nlohmann::json::parse(R"({"by_engine": {"dragonfly": {"method": "release",
      "tries": 2}, "redis": {"method": "apt", "tries": 1}}, "counts": {"a": 3}})"));
  Installs out;
  std::string error;
  ASSERT_TRUE(FromJson(j, &out, &error)) << error;
  EXPECT_EQ(out.by_engine.at("dragonfly").method, "release");
  EXPECT_EQ(out.by_engine.at("redis").tries, 1);
  EXPECT_EQ(out.counts, in.counts);
  EXPECT_FALSE(ToJson(Installs{}).contains("counts"));
}

TEST(JsonFields, AMapEntryOfTheWrongTypeNamesItsPath) {
  Installs out;
  std::string error;
  EXPECT_FALSE(
      FromJson(nlohmann::json::parse(R"({"by_engine": {"redis": {"tries": "x"}}})"), &out, &error));
  EXPECT_EQ(error, "by_engine.redis.tries: expected an integer");
  EXPECT_FALSE(FromJson(nlohmann::json::parse(R"({"by_engine": []})"), &out, &error));
  EXPECT_EQ(error, "by_engine: expected an object");
}

}  // namespace map_fields
}  // namespace
}  // namespace dfbench::results
