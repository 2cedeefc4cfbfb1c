/* The strict JSON parser: valid documents, every kind of value, escapes,
 * and invalid inputs with the line:col each error must point at (counted
 * by hand, 1-based, columns in bytes). */
#include <string.h>

#include "harness.h"
#include "testing/json.h"

static JsonDoc *parse_ok(const char *text) {
  JsonDoc *d = NULL;
  CHECK_OK(json_parse(text, strlen(text), "t.json", &d));
  return d;
}

/* Expects an error whose message contains `where` ("t.json:L:C: msg"). */
#define CHECK_JSON_ERR(text, where)                                           \
  do {                                                                        \
    JsonDoc *d_ = NULL;                                                       \
    CHECK_ERR(json_parse(text, strlen(text), "t.json", &d_), where);          \
    CHECK(d_ == NULL);                                                        \
  } while (0)

TEST(scalars) {
  JsonDoc *d = parse_ok(" 42 ");
  if (d) CHECK(d->root->kind == JSON_NUMBER && d->root->number == 42);
  json_free(d);
  d = parse_ok("-0.5e-3");
  if (d) CHECK(d->root->number == -0.0005);
  json_free(d);
  d = parse_ok("1E+2");
  if (d) CHECK(d->root->number == 100);
  json_free(d);
  d = parse_ok("1e-300");
  if (d) CHECK(d->root->number == 1e-300);
  json_free(d);
  d = parse_ok("true");
  if (d) CHECK(d->root->kind == JSON_BOOL && d->root->boolean);
  json_free(d);
  d = parse_ok("false");
  if (d) CHECK(d->root->kind == JSON_BOOL && !d->root->boolean);
  json_free(d);
  d = parse_ok("null");
  if (d) CHECK(d->root->kind == JSON_NULL);
  json_free(d);
}

TEST(strings_and_escapes) {
  JsonDoc *d = parse_ok("\"a\\\"b\\\\c\\/d\\n\\t\\b\\f\\r\"");
  if (d) {
    CHECK(d->root->kind == JSON_STRING);
    CHECK(strcmp(d->root->str, "a\"b\\c/d\n\t\b\f\r") == 0);
  }
  json_free(d);
  /* \u00e9 = é = C3 A9; \u20ac = € = E2 82 AC; \ud83d\ude00 = U+1F600 = F0 9F 98 80 */
  d = parse_ok("\"\\u00e9\\u20AC\\ud83d\\ude00\"");
  if (d) CHECK(strcmp(d->root->str, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80") == 0);
  json_free(d);
  d = parse_ok("\"x\\u0000y\"");
  if (d) CHECK(d->root->len == 3 && d->root->str[1] == 0 && d->root->str[2] == 'y');
  json_free(d);
  d = parse_ok("\"caf\xc3\xa9\""); /* raw UTF-8 passes through */
  if (d) CHECK(d->root->len == 5);
  json_free(d);
}

TEST(objects_and_arrays) {
  const char *text =
      "{\n"
      "  \"args\": [{\"file\": \"args/0.npy\", \"shape\": [8, 16]}],\n"
      "  \"empty\": [], \"obj\": {},\n"
      "  \"tol\": 2e-05\n"
      "}\n";
  JsonDoc *d = parse_ok(text);
  if (!d) return;
  const JsonValue *r = d->root;
  CHECK(r->kind == JSON_OBJECT && r->n == 4);
  const JsonValue *args = json_get(r, "args");
  CHECK(args && args->kind == JSON_ARRAY && args->n == 1);
  if (args && args->n == 1) {
    const JsonValue *shape = json_get(args->items[0], "shape");
    int64_t v = 0;
    CHECK(shape && shape->n == 2 && json_as_i64(shape->items[1], &v) && v == 16);
    /* positions: "args" value '[' is on line 2, column 11 */
    CHECK(args->line == 2 && args->col == 11);
    const JsonValue *file = json_get(args->items[0], "file");
    CHECK(file && strcmp(file->str, "args/0.npy") == 0);
  }
  CHECK(json_get(r, "empty")->n == 0 && json_get(r, "obj")->kind == JSON_OBJECT);
  CHECK(json_get(r, "tol")->number == 2e-05);
  CHECK(json_get(r, "missing") == NULL);
  CHECK(json_get(json_get(r, "tol"), "x") == NULL);
  json_free(d);
}

TEST(as_i64) {
  JsonDoc *d = parse_ok("[3, 3.5, -7, 1e20, 9007199254740992, \"3\"]");
  if (!d) return;
  int64_t v;
  CHECK(json_as_i64(d->root->items[0], &v) && v == 3);
  CHECK(!json_as_i64(d->root->items[1], &v));
  CHECK(json_as_i64(d->root->items[2], &v) && v == -7);
  CHECK(!json_as_i64(d->root->items[3], &v));
  CHECK(json_as_i64(d->root->items[4], &v) && v == 9007199254740992LL);
  CHECK(!json_as_i64(d->root->items[5], &v));
  json_free(d);
}

TEST(deep_nesting) {
  char buf[2 * JSON_MAX_DEPTH + 8];
  int n = JSON_MAX_DEPTH;
  for (int i = 0; i < n; i++) buf[i] = '[';
  for (int i = 0; i < n; i++) buf[n + i] = ']';
  buf[2 * n] = 0;
  JsonDoc *d = parse_ok(buf);
  json_free(d);
  /* One more level: refused (at the innermost '[', column 201). */
  char deep[2 * JSON_MAX_DEPTH + 8];
  for (int i = 0; i <= n; i++) deep[i] = '[';
  for (int i = 0; i <= n; i++) deep[n + 1 + i] = ']';
  deep[2 * n + 2] = 0;
  CHECK_JSON_ERR(deep, "t.json:1:201: nesting too deep");
}

TEST(errors_with_positions) {
  CHECK_JSON_ERR("", "t.json:1:1: unexpected end of input");
  CHECK_JSON_ERR("   ", "t.json:1:4: unexpected end of input");
  CHECK_JSON_ERR("{\"a\": 1,}", "t.json:1:9: trailing comma in object");
  CHECK_JSON_ERR("[1, 2,]", "t.json:1:7: trailing comma in array");
  CHECK_JSON_ERR("[1 2]", "t.json:1:4: expected ',' or ']'");
  CHECK_JSON_ERR("{\"a\" 1}", "t.json:1:6: expected ':' after a key");
  CHECK_JSON_ERR("{a: 1}", "t.json:1:2: expected a string key");
  CHECK_JSON_ERR("{\"a\": 1, \"a\": 2}", "t.json:1:10: duplicate key");
  CHECK_JSON_ERR("{\n  \"x\": tru\n}", "t.json:2:8: unexpected character");
  CHECK_JSON_ERR("[\n\n   01]", "t.json:3:4: leading zeros");
  CHECK_JSON_ERR("1.", "t.json:1:3: expected a digit after '.'");
  CHECK_JSON_ERR("1e", "t.json:1:3: expected a digit in the exponent");
  CHECK_JSON_ERR("-", "t.json:1:1: invalid number");
  CHECK_JSON_ERR("+1", "t.json:1:1: unexpected character");
  CHECK_JSON_ERR(".5", "t.json:1:1: unexpected character");
  CHECK_JSON_ERR("1e999", "t.json:1:1: number out of range");
  CHECK_JSON_ERR("NaN", "t.json:1:1: unexpected character");
  CHECK_JSON_ERR("\"abc", "t.json:1:1: unterminated string");
  CHECK_JSON_ERR("\"a\tb\"", "t.json:1:3: control character in string");
  CHECK_JSON_ERR("\"a\\qb\"", "t.json:1:3: invalid escape");
  CHECK_JSON_ERR("\"\\u12\"", "t.json:1:2: bad \\u escape");
  CHECK_JSON_ERR("\"\\ud800x\"", "t.json:1:2: unpaired high surrogate");
  CHECK_JSON_ERR("\"\\udc00\"", "t.json:1:2: unpaired low surrogate");
  CHECK_JSON_ERR("\"\xc3\x28\"", "t.json:1:2: invalid UTF-8");
  CHECK_JSON_ERR("\"\xc0\xaf\"", "t.json:1:2: invalid UTF-8"); /* overlong '/' */
  CHECK_JSON_ERR("\"\xed\xa0\x80\"", "t.json:1:2: invalid UTF-8"); /* surrogate */
  CHECK_JSON_ERR("{} {}", "t.json:1:4: unexpected characters after the JSON value");
  CHECK_JSON_ERR("[1] // comment", "t.json:1:5: unexpected characters");
  CHECK_JSON_ERR("[", "t.json:1:2: unexpected end of input");
  CHECK_JSON_ERR("[1", "t.json:1:3: unterminated array");
  CHECK_JSON_ERR("{\"a\": 1", "t.json:1:8: unterminated object");
}

/* Text that is not NUL-terminated: the parser must stop at len. */
TEST(respects_length) {
  const char text[] = {'[', '1', ']', '@'};
  JsonDoc *d = NULL;
  CHECK_OK(json_parse(text, 3, NULL, &d));
  json_free(d);
  CHECK_ERR(json_parse(text, 2, NULL, &d), "<json>:1:3");
  const char num[] = {'1', '2', '3'};
  CHECK_OK(json_parse(num, 2, NULL, &d));
  if (d) CHECK(d->root->number == 12);
  json_free(d);
}

TEST(allocation_failures) {
  const char *text = "{\"a\": [1, 2, {\"b\": \"long string value\"}], \"c\": null}";
  for (long k = 1; k < 40; k++) {
    JsonDoc *d = NULL;
    cxla_fail_alloc_at(k);
    cxla_status s = json_parse(text, strlen(text), NULL, &d);
    cxla_fail_alloc_at(0);
    CHECK((s == NULL) == (d != NULL));
    cxla_status_free(s);
    json_free(d);
  }
}

int main(void) {
  RUN(scalars);
  RUN(strings_and_escapes);
  RUN(objects_and_arrays);
  RUN(as_i64);
  RUN(deep_nesting);
  RUN(errors_with_positions);
  RUN(respects_length);
  RUN(allocation_failures);
  return test_summary("test_json");
}
