// Conversion between the wire classes of framework.proto
// (paddle::framework::proto::ProgramDesc) and the in-memory view
// cpp::ProgramDesc.
//
// The caller owns both programs; nothing is kept between calls. What the
// in-memory view does not model (op_compatible_map, is_target,
// VarDesc.stop_gradient/is_parameter/attrs, sub-descs of other var kinds,
// whether an optional field was written explicitly, attribute order, the
// encoding of SCALAR attributes, unknown fields) is kept in
// cpp::ProgramDesc::opaque_extras as a serialized partial ProgramDesc:
// top-level and block-level fields, plus verbatim copies of the vars (keyed by
// name) and ops (keyed by type + inputs + outputs) whose regenerated form
// would differ from the original. ProgramToProto starts each element from
// its stored copy and then writes the modelled fields over it, so
// proto -> cpp -> proto reproduces the original message exactly, and an op or
// var that a pass changed keeps whatever extras still match.
#pragma once

#include <string>

#include <google/protobuf/message_lite.h>

#include "lite/model_parser/framework.pb.h"
#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {

// Fills *out from `in`. Fails with InvalidArgument ("not a Paddle
// ProgramDesc ...") when `in` has no blocks, block 0 is missing, or a
// required field other than a TensorDesc data_type is absent; also when an
// attribute cannot be read (the message names block, op and attribute).
// A var whose element type has no lite equivalent (BF16, complex, or a code
// this proto does not know) gets DataType::kUnknown. *out is only written on
// success.
Status ProgramFromProto(const paddle::framework::proto::ProgramDesc& in,
                        cpp::ProgramDesc* out);

// Replaces *out with `in`, merged with in.opaque_extras. Never fails; a var
// of DataType::kUnknown with no stored element type is written without
// data_type (a partial message: serialize it with the Partial functions).
void ProgramToProto(const cpp::ProgramDesc& in,
                    paddle::framework::proto::ProgramDesc* out);

// Deterministic serialization (SerializePartial; fields in number order, the
// same bytes for the same message).
std::string SerializeDeterministic(const google::protobuf::MessageLite& msg);

}  // namespace lite
