// Private to the gateway: the check that ends each line of the call journal (call_journal.hpp).
//
// A journal segment is reused once its records are committed: zeroed, but the zeros are not synced
// to the disk. After a power loss a page of new lines that never reached the disk can read as an
// old line's bytes, so a line may come back made of two. Each line therefore ends with a check of
// its text, and recovery leaves out a line whose check does not hold. It guards against torn and
// spliced writes, not against an attacker (who could write a matching check): the audit chain's
// SHA-256 is what shows tampering.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "mcp/json.hpp"

namespace mcp::gateway {

// The check of `text`: 64 bits, taken eight bytes at a time. It replaced FNV-1a taken a byte at a
// time, whose chain of multiplies was ~0.5 µs of a gateway call under the journal's lock.
std::uint64_t journal_line_hash(std::string_view text);

// Appends `,"h":"` + 16 hex digits of journal_line_hash(text) + `"}`: the end of a line whose text
// before it is `text`.
void append_journal_check(std::string& out, std::string_view text);

// Whether `line` (parsed as `o`) ends with the right check. Lines written by earlier versions end
// with `,"c":"` and FNV-1a of the text before it (checked so too); lines written before lines had
// checks carry none, and stand as they are.
bool journal_check_holds(std::string_view line, const json::object& o);

}  // namespace mcp::gateway
