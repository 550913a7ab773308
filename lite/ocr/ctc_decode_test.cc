// CTC greedy decoding on hand-built probability matrices whose decodes are
// known: repeats collapse, blanks separate real repeats, the space class,
// the score, dictionary files and mismatched class counts.
#include "lite/ocr/ctc_decode.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace lite {
namespace ocr {
namespace {

// steps x classes rows, each with `peak` at its class and the rest shared.
std::vector<float> Rows(const std::vector<int>& argmax, int classes, float peak = 0.9f) {
  std::vector<float> probs(argmax.size() * classes, (1 - peak) / (classes - 1));
  for (size_t t = 0; t < argmax.size(); ++t) probs[t * classes + argmax[t]] = peak;
  return probs;
}

// blank, a, b, c, then " " (use_space_char).
CtcDictionary Abc() { return MakeCtcDictionary({"a", "b", "c"}, true); }

TEST(CtcDecode, CollapsesRepeatsAndDropsBlanks) {
  // a a _ a b b _ _ c  ->  "aabc": a blank between two a's keeps both.
  auto probs = Rows({1, 1, 0, 1, 2, 2, 0, 0, 3}, 5);
  auto r = CtcGreedyDecode(probs.data(), 9, 5, Abc());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->text, "aabc");
  EXPECT_EQ(r->classes, (std::vector<int64_t>{1, 1, 2, 3}));
}

TEST(CtcDecode, LastClassIsSpace) {
  auto probs = Rows({1, 4, 4, 0, 2}, 5);
  auto r = CtcGreedyDecode(probs.data(), 5, 5, Abc());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->text, "a b");
}

TEST(CtcDecode, ScoreIsMeanOfKeptMaxima) {
  // Kept steps: 0 (0.9), 2 (0.6); the repeat at step 1 and the blank do not count.
  std::vector<float> probs = Rows({1, 1, 2, 0}, 5);
  probs[2 * 5 + 2] = 0.6f;
  probs[1 * 5 + 1] = 0.5f;
  auto r = CtcGreedyDecode(probs.data(), 4, 5, Abc());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->text, "ab");
  EXPECT_NEAR(r->score, (0.9 + 0.6) / 2, 1e-6);
}

TEST(CtcDecode, AllBlankIsEmptyWithScoreZero) {
  auto probs = Rows({0, 0, 0}, 5);
  auto r = CtcGreedyDecode(probs.data(), 3, 5, Abc());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->text, "");
  EXPECT_EQ(r->score, 0.0f);
}

TEST(CtcDecode, MultiByteEntries) {
  CtcDictionary dict = MakeCtcDictionary({"中", "国"}, false);
  auto probs = Rows({1, 0, 2, 2}, 3);
  auto r = CtcGreedyDecode(probs.data(), 4, 3, dict);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->text, "中国");
}

TEST(CtcDecode, ClassCountMustMatchDictionary) {
  auto probs = Rows({1}, 4);
  auto r = CtcGreedyDecode(probs.data(), 1, 4, Abc());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("4 classes"), std::string::npos);
  EXPECT_NE(r.status().message().find("gives 5"), std::string::npos);
}

TEST(CtcDictionary, FileLinesWithCrLfAndNoFinalNewline) {
  std::string path = ::testing::TempDir() + "/keys.txt";
  std::ofstream(path, std::ios::binary) << "x\r\ny\n\xe4\xb8\xad";
  auto dict = LoadCtcDictionary(path, true);
  ASSERT_TRUE(dict.ok()) << dict.status().ToString();
  EXPECT_EQ(dict->classes, (std::vector<std::string>{"", "x", "y", "中", " "}));
  std::remove(path.c_str());
}

TEST(CtcDictionary, MissingFileNamesThePath) {
  auto dict = LoadCtcDictionary("/nonexistent/keys.txt", true);
  ASSERT_FALSE(dict.ok());
  EXPECT_NE(dict.status().message().find("/nonexistent/keys.txt"), std::string::npos);
}

}  // namespace
}  // namespace ocr
}  // namespace lite
