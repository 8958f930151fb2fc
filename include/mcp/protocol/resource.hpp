// mcp/protocol/resource.hpp — resources (schema 2025-11-25: "Resource", "ResourceTemplate",
// "ListResourcesResult", "ListResourceTemplatesResult", "ReadResourceRequestParams",
// "ReadResourceResult", "SubscribeRequestParams", "UnsubscribeRequestParams",
// "ResourceUpdatedNotificationParams").
//
// Conventions: see mcp/protocol/tool.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/protocol/annotations.hpp"
#include "mcp/protocol/icon.hpp"
#include "mcp/protocol/resource_contents.hpp"

namespace mcp {

struct Resource {
  std::string uri;
  std::string name;
  std::optional<std::string> title;
  std::optional<std::string> description;
  std::optional<std::string> mime_type;  // "mimeType"
  std::optional<Annotations> annotations;
  std::optional<std::int64_t> size;  // bytes, before any encoding
  std::vector<Icon> icons;
  std::optional<json::object> meta;
  json::object extra;
};

struct ResourceTemplate {
  std::string uri_template;  // "uriTemplate", RFC 6570
  std::string name;
  std::optional<std::string> title;
  std::optional<std::string> description;
  std::optional<std::string> mime_type;  // for every resource the template matches, if uniform
  std::optional<Annotations> annotations;
  std::vector<Icon> icons;
  std::optional<json::object> meta;
  json::object extra;
};

struct ListResourcesResult {
  std::vector<Resource> resources;
  std::optional<std::string> next_cursor;  // "nextCursor"
  std::optional<json::object> meta;
  json::object extra;
};

struct ListResourceTemplatesResult {
  std::vector<ResourceTemplate> resource_templates;  // "resourceTemplates"
  std::optional<std::string> next_cursor;
  std::optional<json::object> meta;
  json::object extra;
};

// resources/read, resources/subscribe and resources/unsubscribe all take just a URI (the schema's
// "ResourceRequestParams"); one struct, three names.
struct ResourceRequestParams {
  std::string uri;
  std::optional<json::object> meta;
  json::object extra;
};
using ReadResourceRequestParams = ResourceRequestParams;
using SubscribeRequestParams = ResourceRequestParams;
using UnsubscribeRequestParams = ResourceRequestParams;

struct ReadResourceResult {
  std::vector<ResourceContents> contents;
  std::optional<json::object> meta;
  json::object extra;
};

// notifications/resources/updated. `uri` may be a sub-resource of the one subscribed to.
struct ResourceUpdatedNotificationParams {
  std::string uri;
  std::optional<json::object> meta;
  json::object extra;
};

json::value to_json(const Resource&);
json::value to_json(const ResourceTemplate&);
json::value to_json(const ListResourcesResult&);
json::value to_json(const ListResourceTemplatesResult&);
json::value to_json(const ResourceRequestParams&);
json::value to_json(const ReadResourceResult&);
json::value to_json(const ResourceUpdatedNotificationParams&);
template <> Result<Resource> from_json<Resource>(const json::value&);
template <> Result<ResourceTemplate> from_json<ResourceTemplate>(const json::value&);
template <> Result<ListResourcesResult> from_json<ListResourcesResult>(const json::value&);
template <> Result<ListResourceTemplatesResult> from_json<ListResourceTemplatesResult>(const json::value&);
template <> Result<ResourceRequestParams> from_json<ResourceRequestParams>(const json::value&);
template <> Result<ReadResourceResult> from_json<ReadResourceResult>(const json::value&);
template <> Result<ResourceUpdatedNotificationParams> from_json<ResourceUpdatedNotificationParams>(
    const json::value&);

}  // namespace mcp
