// The conformance suite's fixture, registered on any Server: every tool, resource, template and
// prompt the official server scenarios name, with the behaviour they check. Transport-independent:
// main.cpp serves it on stdio (and, with the HTTP transport, on --http).
#pragma once

#include "mcp/server/server.hpp"

namespace everything {

void add_tools(mcp::Server& server);

// A fixture tool's definition (tools.cpp): no arguments unless a schema is given.
mcp::json::object no_args();
mcp::Tool tool(std::string name, std::string description, mcp::json::object schema = no_args());
void add_resources(mcp::Server& server);
void add_prompts(mcp::Server& server);
void add_completion(mcp::Server& server);
// stateless.cpp: the fixtures of the 2026-07-28 scenarios (multi round-trip, server-stateless, x-mcp-header).
void add_stateless_fixtures(mcp::Server& server);

// A 1x1 PNG, as the suite's reference fixture uses.
inline constexpr const char* kPng =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
// A minimal WAV file.
inline constexpr const char* kWav = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

}  // namespace everything
