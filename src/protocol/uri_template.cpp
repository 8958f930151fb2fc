#include "mcp/protocol/uri_template.hpp"

#include <algorithm>

namespace mcp {

namespace {

struct Variable {
  std::string name;
  bool explode = false;
};

struct Expression {
  char op = 0;  // 0, '+', '#', '.', '/', ';', '?', '&'
  std::vector<Variable> vars;

  bool is_query() const { return op == '?' || op == '&'; }
  // The character an expansion starts with, if any.
  char prefix() const { return op == '#' || op == '.' || op == '/' || op == ';' ? op : 0; }
  // Between the values of one expression.
  char separator() const { return op == '.' || op == '/' || op == ';' ? op : ','; }
  // {+var} and {#var} may contain almost anything: their values end at the next literal, lazily.
  bool wide() const { return op == '+' || op == '#'; }
  bool allows(char c) const {
    switch (op) {
      case '#': return true;
      case '+': return c != '?' && c != '#';
      case '.': return c != '/' && c != '?' && c != '#' && c != '.';
      case '/': return c != '/' && c != '?' && c != '#';
      case ';': return c != '/' && c != '?' && c != '#' && c != ';';
      default: return c != '/' && c != '?' && c != '#' && c != ',';
    }
  }
};

struct Part {
  std::string literal;  // when expr is empty
  std::optional<Expression> expr;
};

bool is_var_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '%';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string pct_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    int hi = s[i] == '%' && i + 2 < s.size() ? hex_value(s[i + 1]) : -1;
    int lo = hi >= 0 ? hex_value(s[i + 2]) : -1;
    if (lo >= 0) {
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

std::string pct_encode(std::string_view s, bool allow_reserved) {
  static constexpr std::string_view unreserved = "-._~";
  static constexpr std::string_view reserved = ":/?#[]@!$&'()*+,;=";
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum || unreserved.find(static_cast<char>(c)) != std::string_view::npos ||
        (allow_reserved && reserved.find(static_cast<char>(c)) != std::string_view::npos)) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

std::string at(std::size_t i) { return " at position " + std::to_string(i); }

}  // namespace

struct UriTemplate::Parsed {
  std::string text;
  std::vector<Part> parts;
  std::size_t path_parts = 0;  // parts before the first query expression
  std::vector<std::string> query_vars;

  // Matches parts [0, path_parts) against the whole of `path`, filling `vars`. Left to right, each
  // part consumes a span whose end is found by a scan or a find: linear in path.size() (times the
  // length of a template literal), no backtracking.
  bool match_path(std::string_view path, Variables& vars) const;
  bool match_expression(const Expression& e, std::string_view span, Variables& vars) const;
};

Result<UriTemplate> UriTemplate::parse(std::string_view text) {
  auto p = std::make_shared<Parsed>();
  p->text = std::string(text);
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '{') {
      auto close = text.find('}', i);
      if (close == std::string_view::npos) return fail(Error::invalid_params("URI template: unclosed '{'" + at(i)));
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
          return fail(Error::invalid_params("URI template: bad variable name in '{" +
                                            std::string(text.substr(i + 1, close - i - 1)) + "}'" + at(i)));
        }
        e.vars.push_back(Variable{std::string(spec), explode});
        if (comma == std::string_view::npos) break;
        body.remove_prefix(comma + 1);
      }
      if (e.vars.empty()) return fail(Error::invalid_params("URI template: empty expression" + at(i)));
      p->parts.push_back(Part{{}, std::move(e)});
      i = close + 1;
    } else {
      auto next = std::min(text.find('{', i), text.size());
      std::string_view literal = text.substr(i, next - i);
      if (auto brace = literal.find('}'); brace != std::string_view::npos) {
        return fail(Error::invalid_params("URI template: unmatched '}'" + at(i + brace)));
      }
      p->parts.push_back(Part{std::string(literal), {}});
      i = next;
    }
  }

  // Query expressions match parameters in any order, so they must come last; and every boundary
  // between two path parts must be decidable without backtracking.
  p->path_parts = p->parts.size();
  for (std::size_t k = 0; k < p->parts.size(); ++k) {
    const auto& part = p->parts[k];
    if (part.expr && part.expr->is_query()) {
      if (p->path_parts == p->parts.size()) p->path_parts = k;
      for (const auto& v : part.expr->vars) p->query_vars.push_back(v.name);
      continue;
    }
    if (p->path_parts != p->parts.size()) {
      return fail(Error::invalid_params(std::string("URI template: ") +
                                        (part.expr ? "a path expression" : "literal text") +
                                        " after a query expression is not supported: " + std::string(text)));
    }
    // Two adjacent expressions: the second one's prefix character is the only boundary there is.
    if (part.expr && k + 1 < p->parts.size() && p->parts[k + 1].expr && !p->parts[k + 1].expr->is_query() &&
        p->parts[k + 1].expr->prefix() == 0) {
      return fail(Error::invalid_params("URI template: adjacent expressions without a separator cannot be matched: " +
                                        std::string(text)));
    }
  }
  UriTemplate t;
  t.p_ = std::move(p);
  return t;
}

bool UriTemplate::Parsed::match_expression(const Expression& e, std::string_view span, Variables& vars) const {
  if (char prefix = e.prefix()) {
    if (span.empty() || span.front() != prefix) return false;
    span.remove_prefix(1);
  }
  // Cut the span into one piece per separator; a wide expression's separator may also occur inside
  // its last value, so it is cut at most vars-1 times, leftmost first.
  std::vector<std::string_view> pieces;
  const char sep = e.separator();
  const std::size_t max_cuts = e.wide() ? e.vars.size() - 1 : std::string_view::npos;
  std::size_t start = 0;
  for (std::size_t cuts = 0;; ++cuts) {
    auto found = cuts < max_cuts ? span.find(sep, start) : std::string_view::npos;
    pieces.push_back(span.substr(start, found == std::string_view::npos ? std::string_view::npos : found - start));
    if (found == std::string_view::npos) break;
    start = found + 1;
  }
  // An exploded variable takes the pieces the others leave (joined by the separator again).
  const auto exploded =
      std::find_if(e.vars.begin(), e.vars.end(), [](const Variable& v) { return v.explode; }) - e.vars.begin();
  const bool has_explode = static_cast<std::size_t>(exploded) < e.vars.size();
  if (has_explode ? pieces.size() < e.vars.size() : pieces.size() != e.vars.size()) return false;
  const std::size_t extra = pieces.size() - e.vars.size();
  std::size_t piece = 0;
  for (std::size_t k = 0; k < e.vars.size(); ++k) {
    const Variable& v = e.vars[k];
    std::size_t take = has_explode && static_cast<std::ptrdiff_t>(k) == exploded ? extra + 1 : 1;
    std::string_view first = pieces[piece], last = pieces[piece + take - 1];
    std::string_view value(first.data(), static_cast<std::size_t>(last.data() + last.size() - first.data()));
    piece += take;
    if (e.op == ';') {  // ;name or ;name=value
      if (!value.starts_with(v.name)) return false;
      value.remove_prefix(v.name.size());
      if (!value.empty()) {
        if (value.front() != '=') return false;
        value.remove_prefix(1);
      }
    }
    for (std::size_t c = 0; c < value.size(); ++c) {
      // Inside an exploded value the separator joins its pieces; elsewhere it was cut out above.
      if (!e.allows(value[c]) && !(take > 1 && value[c] == sep)) return false;
    }
    if (e.op == 0 && value.empty()) return false;
    vars[v.name] = pct_decode(value);
  }
  return true;
}

bool UriTemplate::Parsed::match_path(std::string_view path, Variables& vars) const {
  std::size_t pos = 0;
  for (std::size_t k = 0; k < path_parts; ++k) {
    const Part& part = parts[k];
    std::string_view rest = path.substr(pos);
    if (!part.expr) {
      if (!rest.starts_with(part.literal)) return false;
      pos += part.literal.size();
      continue;
    }
    const Expression& e = *part.expr;
    std::size_t end = path.size();  // where this expression's span ends
    if (k + 1 < path_parts) {
      const Part& next = parts[k + 1];
      if (!next.expr) {
        if (k + 2 == path_parts) {
          // The template's last literal ends the path.
          if (!rest.ends_with(next.literal)) return false;
          end = path.size() - next.literal.size();
          if (end < pos) return false;
        } else {
          // Skip what the expression needs at least (its prefix; one character for {var}) so that
          // an empty match is not preferred to the real one.
          auto found = path.find(next.literal, pos + (e.prefix() ? 1 : 0) + (e.op == 0 ? 1 : 0));
          if (found == std::string_view::npos) return false;
          end = found;
        }
      } else {
        // Adjacent expressions: the next one starts with its prefix character (parse() made sure
        // it has one). A wide value ends lazily at its first occurrence; a narrow value runs over
        // what its operator allows and, when the prefix is among that, gives back up to its last one.
        const char boundary = next.expr->prefix();
        std::size_t from = pos + (e.prefix() ? 1 : 0);
        if (e.wide()) {
          end = path.find(boundary, from);
          if (end == std::string_view::npos) return false;
        } else {
          std::size_t run = from;
          while (run < path.size() && (e.allows(path[run]) || path[run] == e.separator())) ++run;
          end = run;
          if (e.allows(boundary) || boundary == e.separator()) {
            auto last = path.substr(0, run).rfind(boundary);
            if (last == std::string_view::npos || last < from) return false;
            end = last;
          }
        }
      }
    }
    if (!match_expression(e, path.substr(pos, end - pos), vars)) return false;
    pos = end;
  }
  return pos == path.size();
}

std::optional<UriTemplate::Variables> UriTemplate::match(std::string_view uri) const {
  if (uri.size() > kMaxMatchBytes) return std::nullopt;
  std::string_view path = uri, query;
  bool has_query = false;
  if (!p_->query_vars.empty()) {
    if (auto q = uri.find('?'); q != std::string_view::npos) {
      path = uri.substr(0, q);
      query = uri.substr(q + 1);
      query = query.substr(0, query.find('#'));
      has_query = true;
    }
  }
  Variables vars;
  if (!p_->match_path(path, vars)) return std::nullopt;
  while (has_query && !query.empty()) {
    auto amp = query.find('&');
    std::string_view kv = query.substr(0, amp);
    auto eq = kv.find('=');
    std::string key = pct_decode(kv.substr(0, eq));
    if (std::find(p_->query_vars.begin(), p_->query_vars.end(), key) != p_->query_vars.end()) {
      vars[key] = eq == std::string_view::npos ? "" : pct_decode(kv.substr(eq + 1));
    }
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
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
    for (const auto& v : e.vars) {
      auto it = variables.find(v.name);
      if (it == variables.end()) continue;
      std::string value = pct_encode(it->second, e.wide());
      switch (e.op) {
        case '?': case '&': out += (first ? std::string(1, e.op) : "&") + v.name + "=" + value; break;
        case ';': out += ";" + v.name + (value.empty() ? "" : "=" + value); break;
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
    if (part.expr) {
      for (const auto& v : part.expr->vars) out.push_back(v.name);
    }
  }
  return out;
}

const std::string& UriTemplate::text() const { return p_->text; }

}  // namespace mcp
