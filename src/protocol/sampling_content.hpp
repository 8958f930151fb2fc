// Private: the one-or-many "content" shared by SamplingMessage and CreateMessageResult.
#pragma once

#include <string_view>
#include <vector>

#include "mcp/protocol/sampling_message.hpp"

namespace mcp::detail {

json::value sampling_content_to_json(const std::vector<SamplingMessageContentBlock>& content, bool as_array);

// `v` is the "content" member of a `what`; returns the blocks and whether the wire used an array.
Result<std::pair<std::vector<SamplingMessageContentBlock>, bool>> sampling_content_from_json(const json::value& v,
                                                                                             std::string_view what);

}  // namespace mcp::detail
