#include "mcp/server/uri_template.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

namespace mcp {

namespace {

struct Expression {
  char op = 0;  // 0, '+', '#', '.', '/', ';', '?', '&'
  std::vector<std::pair<std::string, bool>> vars;  // name, exploded
};

struct Part {
  std::string literal;  // when expr is empty
  std::optional<Expression> expr;
};

bool is_var_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '%';
}

std::string pct_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

std::string pct_encode(std::string_view s, bool allow_reserved) {
  static const std::string unreserved = "-._~";
  static const std::string reserved = ":/?#[]@!$&'()*+,;=";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || unreserved.find(static_cast<char>(c)) != std::string::npos ||
        (allow_reserved && reserved.find(static_cast<char>(c)) != std::string::npos)) {
      out.push_back(static_cast<char>(c));
    } else {
      static const char* hex = "0123456789ABCDEF";
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

std::string regex_escape(std::string_view s) {
  static const std::string special = R"(\^$.|?*+()[]{})";
  std::string out;
  for (char c : s) {
    if (special.find(c) != std::string::npos) out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

}  // namespace

struct UriTemplate::Parsed {
  std::string text;
  std::vector<Part> parts;
  std::regex path_regex;  // everything up to the first query expression
  std::vector<std::pair<std::string, bool>> path_vars;  // capture group order
  std::vector<std::string> query_vars;
};

Result<UriTemplate> UriTemplate::parse(std::string_view text) {
  auto p = std::make_shared<Parsed>();
  p->text = std::string(text);
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '{') {
      auto close = text.find('}', i);
      if (close == std::string_view::npos) {
        return fail(Error::invalid_params("URI template: unclosed '{' at position " + std::to_string(i)));
      }
      std::string_view body = text.substr(i + 1, close - i - 1);
      Expression e;
      if (!body.empty() && std::string_view("+#./;?&").find(body[0]) != std::string_view::npos) {
        e.op = body[0];
        body.remove_prefix(1);
      }
      while (!body.empty()) {
        auto comma = body.find(',');
        std::string_view spec = body.substr(0, comma);
        bool explode = !spec.empty() && spec.back() == '*';
        if (explode) spec.remove_suffix(1);
        if (auto colon = spec.find(':'); colon != std::string_view::npos) spec = spec.substr(0, colon);
        if (spec.empty() || !std::all_of(spec.begin(), spec.end(), is_var_char)) {
          return fail(Error::invalid_params("URI template: bad variable name in '{" + std::string(text.substr(i + 1, close - i - 1)) +
                                            "}' at position " + std::to_string(i)));
        }
        e.vars.emplace_back(std::string(spec), explode);
        if (comma == std::string_view::npos) break;
        body.remove_prefix(comma + 1);
      }
      if (e.vars.empty()) return fail(Error::invalid_params("URI template: empty expression at position " + std::to_string(i)));
      p->parts.push_back(Part{{}, std::move(e)});
      i = close + 1;
    } else {
      auto next = text.find('{', i);
      if (text.substr(i, next == std::string_view::npos ? std::string_view::npos : next - i).find('}') != std::string_view::npos) {
        return fail(Error::invalid_params("URI template: unmatched '}'"));
      }
      p->parts.push_back(Part{std::string(text.substr(i, next == std::string_view::npos ? std::string_view::npos : next - i)), {}});
      i = next == std::string_view::npos ? text.size() : next;
    }
  }

  // Matching regex: path-like expressions become capture groups; query expressions, which RFC 6570
  // allows in any order and to be absent, are matched separately against the query string.
  std::string re = "^";
  bool in_query = false;
  for (const auto& part : p->parts) {
    if (!part.expr) {
      if (in_query) return fail(Error::invalid_params("URI template: literal text after a query expression is not supported"));
      re += regex_escape(part.literal);
      continue;
    }
    const auto& e = *part.expr;
    if (e.op == '?' || e.op == '&') {
      in_query = true;
      for (const auto& v : e.vars) p->query_vars.push_back(v.first);
      continue;
    }
    if (in_query) return fail(Error::invalid_params("URI template: path expression after a query expression is not supported"));
    std::string seg;  // what one value may contain
    std::string sep;  // between values of one expression
    std::string prefix;
    switch (e.op) {
      case '+': seg = "[^?#]*?"; sep = ","; break;
      case '#': seg = "[\\s\\S]*?"; sep = ","; prefix = "#"; break;
      case '.': seg = "[^/?#.]*"; sep = "\\."; prefix = "\\."; break;
      case '/': seg = "[^/?#]*"; sep = "/"; prefix = "/"; break;
      case ';': seg = "[^/?#;]*"; sep = ";"; prefix = ";"; break;
      default: seg = "[^/?#,]+"; sep = ","; break;
    }
    re += prefix;
    for (std::size_t k = 0; k < e.vars.size(); ++k) {
      if (k) re += sep;
      const auto& [name, explode] = e.vars[k];
      if (e.op == ';') re += regex_escape(name) + "=?";
      if (explode && e.op == '/') re += "(" + seg + "(?:/" + seg + ")*)";
      else re += "(" + seg + ")";
      p->path_vars.emplace_back(name, explode);
    }
  }
  if (in_query) re += "(?:\\?([^#]*))?";
  re += "$";
  try {
    p->path_regex = std::regex(re, std::regex::ECMAScript | std::regex::optimize);
  } catch (const std::regex_error&) {
    return fail(Error::invalid_params("URI template: cannot be matched: " + std::string(text)));
  }
  UriTemplate t;
  t.p_ = std::move(p);
  return t;
}

std::optional<UriTemplate::Variables> UriTemplate::match(std::string_view uri) const {
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_match(uri.begin(), uri.end(), m, p_->path_regex)) return std::nullopt;
  Variables vars;
  std::size_t g = 1;
  for (const auto& [name, explode] : p_->path_vars) {
    (void)explode;
    std::string_view v(&*m[g].first, static_cast<std::size_t>(m[g].length()));
    if (m[g].length() == 0) v = {};
    vars[name] = pct_decode(v);
    ++g;
  }
  if (!p_->query_vars.empty() && g < m.size() && m[g].matched) {
    std::string_view q(&*m[g].first, static_cast<std::size_t>(m[g].length()));
    while (!q.empty()) {
      auto amp = q.find('&');
      std::string_view kv = q.substr(0, amp);
      auto eq = kv.find('=');
      std::string key = pct_decode(kv.substr(0, eq));
      if (std::find(p_->query_vars.begin(), p_->query_vars.end(), key) != p_->query_vars.end()) {
        vars[key] = eq == std::string_view::npos ? "" : pct_decode(kv.substr(eq + 1));
      }
      if (amp == std::string_view::npos) break;
      q.remove_prefix(amp + 1);
    }
  }
  return vars;
}

std::string UriTemplate::expand(const Variables& variables) const {
  std::string out;
  for (const auto& part : p_->parts) {
    if (!part.expr) {
      out += part.literal;
      continue;
    }
    const auto& e = *part.expr;
    bool first = true;
    for (const auto& [name, explode] : e.vars) {
      (void)explode;
      auto it = variables.find(name);
      if (it == variables.end()) continue;
      bool reserved = e.op == '+' || e.op == '#';
      std::string value = pct_encode(it->second, reserved);
      switch (e.op) {
        case '?': case '&': out += (first ? std::string(1, e.op) : "&") + name + "=" + value; break;
        case ';': out += ";" + name + (value.empty() ? "" : "=" + value); break;
        case '/': case '.': out += std::string(1, e.op) + value; break;
        case '#': out += (first ? "#" : ",") + value; break;
        default: out += (first ? "" : ",") + value; break;
      }
      first = false;
    }
  }
  return out;
}

std::vector<std::string> UriTemplate::variable_names() const {
  std::vector<std::string> out;
  for (const auto& part : p_->parts) {
    if (part.expr) for (const auto& v : part.expr->vars) out.push_back(v.first);
  }
  return out;
}

const std::string& UriTemplate::text() const { return p_->text; }

}  // namespace mcp
