// mcp/protocol/resource.hpp — resources (schema 2025-11-25: "Resource", "ResourceTemplate",
// "ListResourcesResult", "ListResourceTemplatesResult", "ReadResourceRequestParams",
// "ReadResourceResult", "SubscribeRequestParams", "UnsubscribeRequestParams",
// "ResourceUpdatedNotificationParams"). Conventions: mcp/protocol/wire.hpp.
#pragma once

#include "mcp/protocol/annotations.hpp"
#include "mcp/protocol/icon.hpp"
#include "mcp/protocol/resource_contents.hpp"
#include "mcp/protocol/wire.hpp"

namespace mcp {

struct Resource {
  std::string uri{};
  std::string name{};
  std::optional<std::string> title{};
  std::optional<std::string> description{};
  std::optional<std::string> mime_type{};
  std::optional<Annotations> annotations{};
  std::optional<std::int64_t> size{};  // bytes, before any encoding
  OptionalArray<Icon> icons{};
  std::optional<ResourceCapabilities> capabilities{};  // SEP-2093
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(Resource, uri, name, title, description, mime_type, annotations, size, icons, capabilities, meta, extra)

// SEP-2093 resources/metadata: a resource's metadata without its content.
struct ResourceMetadataResult {
  Resource resource{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(ResourceMetadataResult, resource, meta, extra)

struct ResourceTemplate {
  std::string uri_template{};  // RFC 6570
  std::string name{};
  std::optional<std::string> title{};
  std::optional<std::string> description{};
  std::optional<std::string> mime_type{};  // for every resource the template matches, if uniform
  std::optional<Annotations> annotations{};
  OptionalArray<Icon> icons{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(ResourceTemplate, uri_template, name, title, description, mime_type, annotations, icons, meta, extra)

// resources/list. SEP-2093: with `uri`, only the direct children of that listable resource.
struct ListResourcesRequestParams {
  std::optional<std::string> cursor{};  // opaque; from a previous result's nextCursor
  std::optional<std::string> uri{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_REQUEST_PARAMS(ListResourcesRequestParams, cursor, uri, meta, extra)

struct ListResourcesResult {
  std::vector<Resource> resources{};
  std::optional<std::string> next_cursor{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(ListResourcesResult, resources, next_cursor, meta, extra)

struct ListResourceTemplatesResult {
  std::vector<ResourceTemplate> resource_templates{};
  std::optional<std::string> next_cursor{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(ListResourceTemplatesResult, resource_templates, next_cursor, meta, extra)

// resources/read, resources/subscribe and resources/unsubscribe all take just a URI (the schema's
// "ResourceRequestParams"); one struct, three names.
struct ResourceRequestParams {
  std::string uri{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_REQUEST_PARAMS(ResourceRequestParams, uri, meta, extra)
using ReadResourceRequestParams = ResourceRequestParams;
using SubscribeRequestParams = ResourceRequestParams;
using UnsubscribeRequestParams = ResourceRequestParams;

struct ReadResourceResult {
  std::vector<ResourceContents> contents{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(ReadResourceResult, contents, meta, extra)

// SEP-2093's multi-content rules, which both roles hold a read's answer to: the rule `r` breaks as
// the answer to a read of `uri` (no contents; contents for another URI from a resource that is not
// listable), if any. Whether it is listable is what the answer says of `uri` (its capabilities),
// else `listable` (what the reader knows otherwise); unknown is the proposal's deprecated case, in
// which other URIs pass.
std::optional<std::string> multi_content_violation(const std::string& uri, const ReadResourceResult& r,
                                                   std::optional<bool> listable = std::nullopt);

// notifications/resources/updated. `uri` may be a sub-resource of the one subscribed to.
struct ResourceUpdatedNotificationParams {
  std::string uri{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(ResourceUpdatedNotificationParams, uri, meta, extra)

}  // namespace mcp
