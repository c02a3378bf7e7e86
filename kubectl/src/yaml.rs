//! Objects as `kubectl get -o yaml|json` prints them: the API server's JSON with keys sorted
//! (Go maps), written as YAML the way sigs.k8s.io/yaml (go-yaml v2) does: two-space
//! indentation, list items at their key's indentation, strings quoted only when YAML would
//! otherwise read them as something else.

use serde_json::{Map, Value};

/// One object, or `kind: List` of several.
pub fn render(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(map) if map.is_empty() => out.push_str("{}\n"),
        Value::Object(map) => write_map(map, 0, &mut out),
        other => {
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
    out
}

/// `kubectl -o json`: four-space indentation, keys sorted.
pub fn render_json(value: &Value) -> String {
    let mut buf = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, formatter);
    if serde::Serialize::serialize(value, &mut ser).is_err() {
        return String::from("{}\n");
    }
    String::from_utf8(buf).unwrap_or_default() + "\n"
}

/// The `kind: List` kubectl prints for several objects.
pub fn list(items: Vec<Value>) -> Value {
    let mut m = Map::new();
    m.insert("apiVersion".into(), Value::from("v1"));
    m.insert("items".into(), Value::Array(items));
    m.insert("kind".into(), Value::from("List"));
    let mut meta = Map::new();
    meta.insert("resourceVersion".into(), Value::from(""));
    m.insert("metadata".into(), Value::Object(meta));
    Value::Object(m)
}

fn indent(n: usize, out: &mut String) {
    out.extend(std::iter::repeat_n(' ', n));
}

fn write_map(map: &Map<String, Value>, level: usize, out: &mut String) {
    for (k, v) in map {
        indent(level, out);
        out.push_str(&key(k));
        out.push(':');
        write_value_after_key(v, level, out);
    }
}

fn write_value_after_key(v: &Value, level: usize, out: &mut String) {
    match v {
        Value::Object(m) if m.is_empty() => out.push_str(" {}\n"),
        Value::Object(m) => {
            out.push('\n');
            write_map(m, level + 2, out);
        }
        Value::Array(a) if a.is_empty() => out.push_str(" []\n"),
        Value::Array(a) => {
            out.push('\n');
            write_list(a, level, out);
        }
        Value::String(s) if s.contains('\n') => {
            out.push_str(" |");
            if !s.ends_with('\n') {
                out.push('-');
            }
            out.push('\n');
            for line in s.trim_end_matches('\n').split('\n') {
                if !line.is_empty() {
                    indent(level + 2, out);
                    out.push_str(line);
                }
                out.push('\n');
            }
        }
        other => {
            out.push(' ');
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
}

fn write_list(items: &[Value], level: usize, out: &mut String) {
    for item in items {
        indent(level, out);
        out.push('-');
        match item {
            Value::Object(m) if !m.is_empty() => {
                // The first key goes on the dash's line.
                let mut first = true;
                for (k, v) in m {
                    if first {
                        out.push(' ');
                        first = false;
                    } else {
                        indent(level + 2, out);
                    }
                    out.push_str(&key(k));
                    out.push(':');
                    write_value_after_key(v, level + 2, out);
                }
            }
            Value::Array(a) if !a.is_empty() => {
                out.push('\n');
                write_list(a, level + 2, out);
            }
            other => write_value_after_key(other, level, out),
        }
    }
}

fn key(k: &str) -> String {
    if needs_quotes(k) {
        quote(k)
    } else {
        k.to_string()
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Null => String::from("null"),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => {
            if needs_quotes(s) {
                quote(s)
            } else {
                s.clone()
            }
        }
        Value::Array(_) => String::from("[]"),
        Value::Object(_) => String::from("{}"),
    }
}

/// go-yaml quotes a string when a plain scalar would read back as another type or not at
/// all.
fn needs_quotes(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    let lower = s.to_ascii_lowercase();
    let special_words = [
        "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~",
    ];
    if special_words.contains(&lower.as_str()) {
        return true;
    }
    if looks_numeric(s) || looks_like_timestamp(s) {
        return true;
    }
    let first = s.chars().next().unwrap_or(' ');
    // A leading dash is a plain scalar unless it reads as a list item (`-`, `- x`).
    let dash_ok = first == '-' && s.len() > 1 && !s.starts_with("- ");
    if "-?:,[]{}#&*!|>'\"%@`".contains(first) && !dash_ok {
        return true;
    }
    if s.starts_with(' ')
        || s.ends_with(' ')
        || s.contains(": ")
        || s.contains(" #")
        || s.ends_with(':')
    {
        return true;
    }
    s.chars().any(|c| c.is_control())
}

fn looks_numeric(s: &str) -> bool {
    let t = s.strip_prefix(['-', '+']).unwrap_or(s);
    if t.starts_with("0x") || t.starts_with("0o") || t == ".inf" || t == ".nan" {
        return true;
    }
    // An int or a float as YAML reads one: digits, one dot at most, an exponent.
    t.chars()
        .all(|c| c.is_ascii_digit() || "._eE+-".contains(c))
        && t.replace('_', "").parse::<f64>().is_ok()
}

fn looks_like_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 10 && b[4] == b'-' && b[7] == b'-' && b[..4].iter().all(u8::is_ascii_digit)
}

/// A YAML double-quoted scalar.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectl_style() {
        let v: Value = serde_json::json!({
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": "nginx",
                "labels": {"run": "nginx"},
                "creationTimestamp": "1970-01-01T00:00:00Z"
            },
            "spec": {
                "containers": [{"name": "nginx", "image": "nginx", "args": ["sleep", "8"]}],
                "tolerations": []
            },
        });
        let want = "\
apiVersion: v1
kind: Pod
metadata:
  creationTimestamp: \"1970-01-01T00:00:00Z\"
  labels:
    run: nginx
  name: nginx
spec:
  containers:
  - args:
    - sleep
    - \"8\"
    image: nginx
    name: nginx
  tolerations: []
";
        assert_eq!(render(&v), want);
    }

    #[test]
    fn quoting() {
        for s in [
            "",
            "true",
            "8",
            "1.5",
            "a: b",
            "*",
            "1970-01-01T00:00:00Z",
            "-",
        ] {
            assert!(needs_quotes(s), "{s}");
        }
        for s in [
            "192.168.1.4",
            "nginx",
            "400m",
            "512Mi",
            "karpenter.sh/nodepool",
            "/bin/sh",
            "-c",
            "al2023@latest",
            "aws:///zone/i-1",
        ] {
            assert!(!needs_quotes(s), "{s}");
        }
    }
}
