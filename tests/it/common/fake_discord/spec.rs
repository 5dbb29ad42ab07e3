//! Checks requests against Discord's OpenAPI description of API v10.
//!
//! The description is Discord's own (`openapi.json` of the `discord/discord-api-spec` repository,
//! MIT-licensed), shipped with the tests in `tests/it/data/discord-api-spec/` beside its licence,
//! and built into the test binary: the check runs on every clone, never skipped. To bring it up
//! to date, replace that `openapi.json` with the repository's newest `specs/openapi.json` and run
//! the tests. It is parsed once per process; each route's request body schema is compiled on
//! first use (with the `#/components/...` schemas it refers to copied beside it, so `$ref`s
//! resolve inside one small document) and cached.
//!
//! Tolerance, where the spec is stricter than Discord or than the validator:
//! - `SnowflakeType` also accepts a non-negative integer. The spec says "string", but Discord
//!   accepts integer ids in request bodies, and serenity 0.12 sends the `id` of new
//!   `attachments` entries as integers (`{"id": 0, "filename": ...}`).
//! - A command's `default_member_permissions` also accepts a string of digits. The spec's request
//!   schemas say "integer", but Discord's own documentation gives the field as a string (a
//!   permission bit set, as its answers hold it), and serenity 0.12 sends it so (`"32"`).
//! - A route whose schema does not compile with the `jsonschema` crate is not checked; one line on
//!   stderr names it.
//! - Formats (`snowflake`, `int64`, ...) are annotations only (the JSON Schema 2020-12 default);
//!   query strings are not checked.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{json, Map, Value};

/// A request that does not fit Discord's OpenAPI description.
#[derive(Clone, Debug)]
pub struct SpecViolation {
    pub method: String,
    /// The path under `/api/v10`, e.g. `/channels/1/messages`.
    pub path: String,
    /// The matching path template of the spec, when there is one.
    pub route: Option<String>,
    /// What is wrong: each entry names the place in the body (a JSON pointer) and the error.
    pub errors: Vec<String>,
    /// The JSON body (or the `payload_json` of a multipart body) that was checked.
    pub body: Option<Value>,
}

impl std::fmt::Display for SpecViolation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} (spec route {})",
            self.method,
            self.path,
            self.route.as_deref().unwrap_or("none")
        )?;
        for e in &self.errors {
            write!(f, "\n    - {e}")?;
        }
        if let Some(body) = &self.body {
            write!(f, "\n    body: {}", super::truncate(&body.to_string(), 600))?;
        }
        Ok(())
    }
}

/// The result of checking one request.
pub(crate) enum Check {
    /// The route is in the spec and the body fits (or its schema could not be compiled).
    Ok { route: String },
    /// No path template of the spec matches this method and path.
    UnknownRoute,
    /// The body does not fit the route's schema.
    Invalid {
        route: String,
        errors: Vec<(String, String)>,
    },
}

struct Route {
    template: String,
    segments: Vec<Option<String>>, // None = a `{parameter}`
    literals: usize,
    methods: Vec<String>,
}

struct BodyCheck {
    validator: jsonschema::Validator,
    schema: Value,
    required: bool,
}

/// Compiled body checks by (method, path template); `None` when the route has no JSON body or
/// its schema does not compile.
type Compiled = HashMap<(String, String), Option<Arc<BodyCheck>>>;

struct Spec {
    doc: Value,
    routes: Vec<Route>,
    compiled: Mutex<Compiled>,
}

/// Discord's OpenAPI description of API v10, as shipped with the tests.
const SPEC_JSON: &str = include_str!("../../data/discord-api-spec/openapi.json");

/// Where the shipped description lies in the repository, for messages.
pub const SPEC_PATH: &str = "tests/it/data/discord-api-spec/openapi.json";

static SPEC: OnceLock<Spec> = OnceLock::new();

/// Parses the description now rather than at the first request (it takes a moment).
pub fn load_spec() {
    spec();
}

fn spec() -> &'static Spec {
    SPEC.get_or_init(load)
}

fn load() -> Spec {
    let mut doc: Value =
        serde_json::from_str(SPEC_JSON).unwrap_or_else(|e| panic!("{SPEC_PATH} is not JSON: {e}"));
    relax(&mut doc);
    let mut routes = Vec::new();
    if let Some(paths) = doc.get("paths").and_then(Value::as_object) {
        for (template, item) in paths {
            let segments: Vec<Option<String>> = template
                .split('/')
                .filter(|s| !s.is_empty())
                .map(|s| (!(s.starts_with('{') && s.ends_with('}'))).then(|| s.to_string()))
                .collect();
            let literals = segments.iter().filter(|s| s.is_some()).count();
            let methods = item
                .as_object()
                .map(|o| {
                    o.keys()
                        .filter(|k| {
                            matches!(
                                k.as_str(),
                                "get" | "put" | "post" | "delete" | "patch" | "head" | "options"
                            )
                        })
                        .map(|k| k.to_ascii_uppercase())
                        .collect()
                })
                .unwrap_or_default();
            routes.push(Route {
                template: template.clone(),
                segments,
                literals,
                methods,
            });
        }
    }
    // More literal segments first, so `/messages/@original` wins over `/messages/{message_id}`.
    routes.sort_by_key(|r| std::cmp::Reverse(r.literals));
    assert!(!routes.is_empty(), "{SPEC_PATH} has no paths");
    Spec {
        doc,
        routes,
        compiled: Mutex::new(HashMap::new()),
    }
}

/// The documented tolerances (see the module comment).
fn relax(doc: &mut Value) {
    if let Some(snowflake) = doc.pointer_mut("/components/schemas/SnowflakeType") {
        let strict = snowflake.clone();
        *snowflake = json!({
            "anyOf": [strict, {"type": "integer", "minimum": 0}]
        });
    }
    for schema in [
        "ApplicationCommandCreateRequest",
        "ApplicationCommandPatchRequestPartial",
        "ApplicationCommandUpdateRequest",
    ] {
        let at = format!("/components/schemas/{schema}/properties/default_member_permissions");
        if let Some(permissions) = doc.pointer_mut(&at) {
            let strict = permissions.clone();
            *permissions = json!({
                "anyOf": [strict, {"type": "string", "pattern": "^[0-9]+$"}]
            });
        }
    }
}

fn match_route<'a>(spec: &'a Spec, method: &str, path: &str) -> Option<&'a Route> {
    let parts: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    spec.routes.iter().find(|r| {
        r.segments.len() == parts.len()
            && r.methods.iter().any(|m| m == method)
            && r.segments.iter().zip(&parts).all(|(seg, part)| match seg {
                Some(lit) => lit == part,
                None => !part.is_empty(),
            })
    })
}

/// Checks one request: `path` is the part under `/api/v10`, `body` the JSON body (or the parsed
/// `payload_json` of a multipart body).
pub(crate) fn check(method: &str, path: &str, body: Option<&Value>) -> Check {
    let spec = spec();
    let Some(route) = match_route(spec, method, path) else {
        return Check::UnknownRoute;
    };
    let template = route.template.clone();
    let Some(body_check) = body_check(spec, method, &template) else {
        return Check::Ok { route: template };
    };
    let Some(body) = body else {
        if body_check.required {
            return Check::Invalid {
                route: template,
                errors: vec![(
                    "/".into(),
                    "the spec requires a request body and there is none".into(),
                )],
            };
        }
        return Check::Ok { route: template };
    };
    if body_check.validator.is_valid(body) {
        return Check::Ok { route: template };
    }
    let mut errors: Vec<(String, String)> = body_check
        .validator
        .iter_errors(body)
        .take(8)
        .map(|e| {
            let at = e.instance_path.to_string();
            let at = if at.is_empty() { "/".to_string() } else { at };
            (at, super::truncate(&e.to_string(), 300))
        })
        .collect();
    errors.extend(explain_union(&body_check.schema, body));
    Check::Invalid {
        route: template,
        errors,
    }
}

/// Compiles the body schema of every route of the spec (normally done lazily, route by route)
/// and returns the `METHOD /template` of those that do not compile and so go unchecked.
pub fn uncheckable_routes() -> Vec<String> {
    let spec = spec();
    let mut out = Vec::new();
    for route in &spec.routes {
        for method in &route.methods {
            let has_body = spec
                .doc
                .pointer(&format!(
                    "/paths/{}/{}/requestBody",
                    route.template.replace('~', "~0").replace('/', "~1"),
                    method.to_ascii_lowercase()
                ))
                .is_some();
            if has_body && body_check(spec, method, &route.template).is_none() {
                out.push(format!("{method} {}", route.template));
            }
        }
    }
    out
}

/// Checks a value against one of the spec's component schemas (`MessageResponse`,
/// `ThreadResponse`, ...), as the fake does with the objects it answers: `None` when the schema
/// does not compile, else what does not fit (empty when it fits).
pub fn schema_errors(schema_name: &str, value: &Value) -> Option<Vec<String>> {
    let spec = spec();
    let key = ("SCHEMA".to_string(), schema_name.to_string());
    let cached = spec.compiled.lock().unwrap().get(&key).cloned();
    let check = match cached {
        Some(found) => found?,
        None => {
            let reference = json!({ "$ref": format!("#/components/schemas/{schema_name}") });
            let root = self_contained(&spec.doc, &reference);
            let built = jsonschema::options().build(&root).ok().map(|validator| {
                Arc::new(BodyCheck {
                    validator,
                    schema: root,
                    required: true,
                })
            });
            spec.compiled
                .lock()
                .unwrap()
                .entry(key)
                .or_insert(built)
                .clone()?
        }
    };
    Some(
        check
            .validator
            .iter_errors(value)
            .take(8)
            .map(|e| {
                let at = e.instance_path.to_string();
                let at = if at.is_empty() { "/".to_string() } else { at };
                format!("at {at}: {}", super::truncate(&e.to_string(), 300))
            })
            .collect(),
    )
}

/// The compiled body check of a route, `None` when it has no JSON body or does not compile.
fn body_check(spec: &Spec, method: &str, template: &str) -> Option<Arc<BodyCheck>> {
    let key = (method.to_string(), template.to_string());
    if let Some(found) = spec.compiled.lock().unwrap().get(&key) {
        return found.clone();
    }
    let built = build_body_check(spec, method, template);
    spec.compiled
        .lock()
        .unwrap()
        .entry(key)
        .or_insert(built)
        .clone()
}

fn build_body_check(spec: &Spec, method: &str, template: &str) -> Option<Arc<BodyCheck>> {
    let request_body = spec
        .doc
        .get("paths")?
        .get(template)?
        .get(method.to_ascii_lowercase())?
        .get("requestBody")?;
    let required = request_body
        .get("required")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let content = request_body.get("content")?;
    let schema = content
        .get("application/json")
        .or_else(|| content.get("multipart/form-data"))?
        .get("schema")?;
    let root = self_contained(&spec.doc, schema);
    match jsonschema::options().build(&root) {
        Ok(validator) => Some(Arc::new(BodyCheck {
            validator,
            schema: root,
            required,
        })),
        Err(e) => {
            eprintln!(
                "fake_discord: the spec's body schema of {method} {template} does not compile ({e}); bodies of that route are not checked"
            );
            None
        }
    }
}

/// A copy of `schema` with every `#/components/...` it refers to (transitively) copied beside it.
fn self_contained(doc: &Value, schema: &Value) -> Value {
    let mut components: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
    let mut pending = Vec::new();
    collect_refs(schema, &mut pending);
    while let Some(reference) = pending.pop() {
        let Some(pointer) = reference.strip_prefix('#') else {
            continue;
        };
        let mut segs = pointer.split('/').filter(|s| !s.is_empty());
        let (Some("components"), Some(kind), Some(name), None) =
            (segs.next(), segs.next(), segs.next(), segs.next())
        else {
            continue;
        };
        let name = name.replace("~1", "/").replace("~0", "~");
        let entry = components.entry(kind.to_string()).or_default();
        if entry.contains_key(&name) {
            continue;
        }
        if let Some(target) = doc.pointer(pointer) {
            entry.insert(name, target.clone());
            collect_refs(target, &mut pending);
        }
    }
    let mut root = match schema {
        Value::Object(o) => o.clone(),
        other => {
            let mut m = Map::new();
            m.insert("allOf".into(), json!([other]));
            m
        }
    };
    let components: Map<String, Value> = components
        .into_iter()
        .map(|(k, v)| (k, Value::Object(v)))
        .collect();
    root.insert("components".into(), Value::Object(components));
    Value::Object(root)
}

fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(o) => {
            for (k, v) in o {
                if k == "$ref" {
                    if let Some(s) = v.as_str() {
                        out.push(s.to_string());
                    }
                } else {
                    collect_refs(v, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

/// For a top-level `anyOf`/`oneOf` of `$ref`s, the errors against each alternative, so the
/// report says more than "not valid under any of the schemas". Alternatives whose `type` field
/// does not fit (a different callback or component type) are left out when others remain.
fn explain_union(root: &Value, body: &Value) -> Vec<(String, String)> {
    let alternatives = root
        .get("anyOf")
        .or_else(|| root.get("oneOf"))
        .and_then(Value::as_array);
    let Some(alternatives) = alternatives else {
        return Vec::new();
    };
    let mut fitting_type = Vec::new();
    let mut other_type = Vec::new();
    for alt in alternatives {
        let Some(reference) = alt.get("$ref").and_then(Value::as_str) else {
            continue;
        };
        let name = reference.rsplit('/').next().unwrap_or(reference);
        let mut schema = json!({ "$ref": reference });
        schema["components"] = root["components"].clone();
        let Ok(v) = jsonschema::options().build(&schema) else {
            continue;
        };
        let errors: Vec<(String, String)> = v
            .iter_errors(body)
            .take(3)
            .map(|e| {
                let at = e.instance_path.to_string();
                let at = if at.is_empty() { "/".to_string() } else { at };
                (
                    at,
                    format!("if {name}: {}", super::truncate(&e.to_string(), 200)),
                )
            })
            .collect();
        if errors.iter().any(|(at, _)| at == "/type") {
            other_type.extend(errors);
        } else {
            fitting_type.extend(errors);
        }
    }
    if fitting_type.is_empty() {
        other_type
    } else {
        fitting_type
    }
}
