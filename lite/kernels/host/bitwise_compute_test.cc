// Bitwise ops against a reference computed element by element on the
// broadcast operands, over every supported dtype.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

// X [2, 3] against Y [3] (broadcast along rows) with the reference op.
template <typename T>
void ExpectBinary(const std::string& op, const std::vector<T>& x, const std::vector<T>& y,
                  const std::function<T(T, T)>& f) {
  OpTester t(op);
  t.SetInput<T>("X", "x", {2, 3}, x);
  t.SetInput<T>("Y", "y", {3}, y);
  t.SetOutput("Out", "out");
  Status s = t.Run();
  ASSERT_TRUE(s.ok()) << op << ": " << s.ToString();
  ASSERT_EQ(t.Get("out").dims(), (DDim{2, 3}));
  ASSERT_EQ(t.Get("out").dtype(), DataTypeOf<T>());
  const std::vector<T> got = t.GetData<T>("out");
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 3; ++c) {
      EXPECT_EQ(got[r * 3 + c], f(x[r * 3 + c], y[c])) << op << " at " << r << "," << c;
    }
  }
}

template <typename T>
void ExpectAll(const std::vector<T>& x, const std::vector<T>& y) {
  ExpectBinary<T>("bitwise_and", x, y, [](T a, T b) { return static_cast<T>(a & b); });
  ExpectBinary<T>("bitwise_or", x, y, [](T a, T b) { return static_cast<T>(a | b); });
  ExpectBinary<T>("bitwise_xor", x, y, [](T a, T b) { return static_cast<T>(a ^ b); });
  OpTester t("bitwise_not");
  t.SetInput<T>("X", "x", {2, 3}, x);
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  const std::vector<T> got = t.GetData<T>("out");
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(got[i], static_cast<T>(~x[i])) << i;
}

TEST(Bitwise, IntegerDtypes) {
  ExpectAll<int32_t>({5, -1, 12, 0, 255, -128}, {3, 6, -8});
  ExpectAll<int64_t>({int64_t{1} << 40, -7, 9, 0, 3, 1}, {-1, 5, int64_t{1} << 40});
  ExpectAll<int8_t>({5, -1, 12, 0, 127, -128}, {3, 6, -8});
  ExpectAll<uint8_t>({5, 255, 12, 0, 128, 7}, {3, 6, 240});
  ExpectAll<int16_t>({500, -1, 12, 0, 32767, -32768}, {3, 6, -8});
}

TEST(Bitwise, BoolIsLogical) {
  const std::vector<bool> xv = {true, false, true, false, true, true};
  const std::vector<bool> yv = {true, true, false};
  for (const char* op : {"bitwise_and", "bitwise_or", "bitwise_xor"}) {
    OpTester t(op);
    t.SetInput<bool>("X", "x", {2, 3}, xv);
    t.SetInput<bool>("Y", "y", {3}, yv);
    t.SetOutput("Out", "out");
    ASSERT_TRUE(t.Run().ok()) << op;
    const auto got = t.GetData<bool>("out");
    for (size_t i = 0; i < 6; ++i) {
      const bool a = xv[i], b = yv[i % 3];
      const bool want = std::string(op) == "bitwise_and" ? (a && b)
                        : std::string(op) == "bitwise_or" ? (a || b)
                                                          : (a != b);
      EXPECT_EQ(got[i], want) << op << " at " << i;
    }
  }
  OpTester t("bitwise_not");
  t.SetInput<bool>("X", "x", {6}, xv);
  t.SetOutput("Out", "out");
  ASSERT_TRUE(t.Run().ok());
  const auto got = t.GetData<bool>("out");
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(got[i], !xv[i]) << i;
}

TEST(Bitwise, RefusesFloatAndMixedDtypes) {
  OpTester f("bitwise_and");
  f.SetInput<float>("X", "x", {2}, {1.f, 2.f});
  f.SetInput<float>("Y", "y", {2}, {1.f, 2.f});
  f.SetOutput("Out", "out");
  Status s = f.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("bitwise_and"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("float32"), std::string::npos) << s.message();

  OpTester m("bitwise_or");
  m.SetInput<int32_t>("X", "x", {2}, {1, 2});
  m.SetInput<int64_t>("Y", "y", {2}, {1, 2});
  m.SetOutput("Out", "out");
  s = m.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("int64"), std::string::npos) << s.message();
}

TEST(Bitwise, BadBroadcastIsAnError) {
  OpTester t("bitwise_xor");
  t.SetInput<int32_t>("X", "x", {2, 3}, {1, 2, 3, 4, 5, 6});
  t.SetInput<int32_t>("Y", "y", {2}, {1, 2});
  t.SetOutput("Out", "out");
  EXPECT_FALSE(t.Run().ok());
}

}  // namespace
}  // namespace lite
