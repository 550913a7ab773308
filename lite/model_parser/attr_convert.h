// Conversion of one op attribute between the wire class
// paddle::framework::proto::OpDesc::Attr and the in-memory cpp::Attribute.
//
// Used by proto_convert; value functions, nothing is owned or kept.
// Storage per AttrType (see program_desc.h): INT/BLOCK int32, LONG int64,
// FLOAT float, FLOAT64 and SCALAR double, STRING/VAR string, BOOLEAN bool,
// INTS/BLOCKS vector<int32>, LONGS vector<int64>, FLOATS vector<float>,
// FLOAT64S and SCALARS vector<double>, STRINGS/VARS vector<string>,
// BOOLEANS vector<bool>. A Scalar of kind BOOLEAN/LONG/FLOAT64 becomes a
// double; a COMPLEX128 scalar keeps only its real part (the original
// encoding survives a round trip through ProgramDesc::opaque_extras).
#pragma once

#include <string>

#include "lite/model_parser/framework.pb.h"
#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {

// Fails (InvalidArgument naming the attribute) when the Attr has no type or
// a SCALAR has no kind.
Status AttrFromProto(const paddle::framework::proto::OpDesc::Attr& in,
                     cpp::Attribute* out);

// Clears *out and writes `name`, the type and the value. A value whose C++
// type does not match the AttrType (possible through OpDesc::SetRawAttr) is
// converted when it is numeric, otherwise written empty.
void AttrToProto(const std::string& name, const cpp::Attribute& in,
                 paddle::framework::proto::OpDesc::Attr* out);

}  // namespace lite
