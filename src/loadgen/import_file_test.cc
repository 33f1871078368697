#include "loadgen/import_file.h"

#include <gtest/gtest.h>

#include <string>

namespace dfbench::loadgen {
namespace {

constexpr std::string_view kHeader =
    "dumpflags, time, exptime, nbytes, nsuffix, it_flags, clsid, nkey, key, data\n";

std::string File(std::string_view items) {
  return std::string(kHeader) + std::string(items);
}

std::string ErrorOf(std::string_view text) {
  auto items = ParseImportFile(text, "in.csv");
  EXPECT_FALSE(items);
  if (items) return "";
  EXPECT_EQ(items.error().kind, core::ErrorKind::kUsage);
  return items.error().message;
}

TEST(ImportFile, ReadsKeysValuesAndExpiryInFileOrder) {
  auto items = ParseImportFile(File("0, 0, 60, 7, 0, 0, 1, 4, \"key1\", \"val1x\"\n"
                                    "0, 0, 0, 5, 0, 0, 1, 4, \"key2\", \"a\"\"b\"\r\n"
                                    "0, 0, 100, 4, 0, 0, 1, 2, k3, zz"),
                               "in.csv");
  ASSERT_TRUE(items) << items.error().message;
  ASSERT_EQ(items->size(), 3u);
  EXPECT_EQ((*items)[0].key, "key1");
  EXPECT_EQ((*items)[0].value, "val1x");
  EXPECT_EQ((*items)[0].expiry_s, 60u);
  EXPECT_EQ((*items)[1].key, "key2");
  EXPECT_EQ((*items)[1].value, "a\"b");
  EXPECT_EQ((*items)[1].expiry_s, 0u);
  EXPECT_EQ((*items)[2].key, "k3");
  EXPECT_EQ((*items)[2].value, "zz");
  EXPECT_EQ((*items)[2].expiry_s, 100u);
}

TEST(ImportFile, QuotedDataKeepsCommasLineBreaksAndNuls) {
  const std::string data("a,\r\nb\0c", 7);
  auto items = ParseImportFile(File("0, 0, 0, 9, 0, 0, 1, 1, \"k\", \"" + data + "\"\n" +
                                    "0, 0, 0, 3, 0, 0, 1, 1, \"j\", \"x\"\n"),
                               "in.csv");
  ASSERT_TRUE(items) << items.error().message;
  ASSERT_EQ(items->size(), 2u);
  EXPECT_EQ((*items)[0].value, data);
  EXPECT_EQ((*items)[1].key, "j");
}

TEST(ImportFile, HeaderAloneHasNoItems) {
  auto items = ParseImportFile(kHeader, "in.csv");
  ASSERT_TRUE(items) << items.error().message;
  EXPECT_TRUE(items->empty());
}

TEST(ImportFile, RefusesAnotherHeader) {
  EXPECT_EQ(ErrorOf("key,value\n"),
            "--data-import: in.csv:1: unexpected CSV header (want \"dumpflags, time, exptime, "
            "...\")");
}

TEST(ImportFile, NamesTheLineOfABadNumber) {
  EXPECT_EQ(ErrorOf(File("0, 0, 0, 3, 0, 0, 1, 1, \"k\", \"x\"\n0, 0, x, 3, 0, 0, 1, 1, \"k\", "
                         "\"x\"\n")),
            "--data-import: in.csv:3: bad item values");
}

TEST(ImportFile, RefusesAKeyOfAnotherLength) {
  EXPECT_EQ(ErrorOf(File("0, 0, 0, 3, 0, 0, 1, 4, \"key\", \"x\"\n")),
            "--data-import: in.csv:2: key column is 3 bytes, the line says 4");
}

TEST(ImportFile, RefusesDataOfAnotherLength) {
  EXPECT_EQ(ErrorOf(File("0, 0, 0, 7, 0, 0, 1, 1, \"k\", \"xy\"\n")),
            "--data-import: in.csv:2: data column is 2 bytes, the line says 5");
}

TEST(ImportFile, RefusesANbytesWithoutRoomForCrlf) {
  EXPECT_EQ(ErrorOf(File("0, 0, 0, 1, 0, 0, 1, 1, \"k\", \"\"\n")),
            "--data-import: in.csv:2: nbytes is below 2 (the data's CRLF)");
}

TEST(ImportFile, RefusesATruncatedLine) {
  EXPECT_EQ(ErrorOf(File("0, 0, 0, 3, 0, 0, 1, 1, \"k\"")),
            "--data-import: in.csv:2: no ',' after the key");
}

TEST(ImportFile, RefusesTextAfterTheData) {
  EXPECT_EQ(ErrorOf(File("0, 0, 0, 3, 0, 0, 1, 1, \"k\", \"x\", extra\n")),
            "--data-import: in.csv:2: the line goes on after the data");
}

TEST(ImportFile, AMissingFileIsBadInput) {
  auto items = ReadImportFile("/nonexistent/import.csv");
  ASSERT_FALSE(items);
  EXPECT_EQ(items.error().kind, core::ErrorKind::kUsage);
  EXPECT_NE(items.error().message.find("/nonexistent/import.csv"), std::string::npos);
}

}  // namespace
}  // namespace dfbench::loadgen
