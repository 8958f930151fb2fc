// Fixture resources and the resource template.
#include "fixture.hpp"

namespace everything {

using namespace mcp;

namespace {

Resource resource(std::string uri, std::string name, std::string description, std::string mime) {
  Resource r;
  r.uri = std::move(uri);
  r.name = std::move(name);
  r.description = std::move(description);
  r.mime_type = std::move(mime);
  return r;
}

ReadResourceResult text(const std::string& uri, std::string mime, std::string body) {
  ReadResourceResult r;
  r.contents.push_back(TextResourceContents{.uri = uri, .mime_type = std::move(mime), .text = std::move(body)});
  return r;
}

}  // namespace

void add_resources(Server& s) {
  s.add_resource(resource("test://static-text", "static-text", "A static text resource", "text/plain"),
                 [](const std::string& uri, RequestContext&) -> Result<ReadResourceResult> {
                   return text(uri, "text/plain", "This is the content of the static text resource.");
                 });
  s.add_resource(resource("test://static-binary", "static-binary", "A static binary resource (a PNG image)", "image/png"),
                 [](const std::string& uri, RequestContext&) -> Result<ReadResourceResult> {
                   ReadResourceResult r;
                   r.contents.push_back(BlobResourceContents{.uri = uri, .mime_type = "image/png", .blob = kPng});
                   return r;
                 });
  s.add_resource(resource("test://watched-resource", "watched-resource", "A resource clients can subscribe to", "text/plain"),
                 [](const std::string& uri, RequestContext&) -> Result<ReadResourceResult> {
                   return text(uri, "text/plain", "Watched resource content");
                 });

  ResourceTemplate t;
  t.uri_template = "test://template/{id}/data";
  t.name = "template";
  t.description = "Data for any id";
  t.mime_type = "application/json";
  auto added = s.add_resource_template(std::move(t), [](const std::string& uri, const UriTemplate::Variables& vars,
                                                         RequestContext&) -> Result<ReadResourceResult> {
    const std::string& id = vars.at("id");
    json::object body{{"id", id}, {"templateTest", true}, {"data", "Data for ID: " + id}};
    return text(uri, "application/json", json::serialize(body));
  });
  (void)added;  // the template is a constant known to parse
}

}  // namespace everything
