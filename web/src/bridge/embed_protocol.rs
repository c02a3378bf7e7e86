//! The messages between an embedded playground and the article around it.
//!
//! Every message is a plain object whose `type` starts with `kpg:`. The host (usually
//! `embed.js`) sends [`HostMessage`]s; the embed answers with [`EmbedMessage`]s. Reading is
//! strict and total: anything that is not a well-formed message of a known type is `None`,
//! and nothing in a message is ever treated as markup (the manifests go through the same
//! reader as typing; names are rendered as text).
//!
//! Pure: the page's `embed` module moves these across `postMessage`; the rules live here and
//! are tested natively.

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::Value;

use crate::base::snapshot::{Fate, LaneKind, Snapshot};

/// The protocol's version, sent with `kpg:ready`.
pub const VERSION: u32 = 1;

/// What a host may ask of an embed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostMessage {
    /// Replace the manifests with this YAML stream and start it at `at` (ms), paused unless
    /// the embed autoplays.
    Load {
        yaml: String,
        at: Option<u64>,
    },
    Play,
    Pause,
    /// Move the clock to this instant (ms); earlier instants replay from the start.
    Seek {
        at: u64,
    },
    Lang(crate::base::i18n::Lang),
    Speed(u32),
    /// Open this guided lesson (a lesson file's YAML); `url` is where the host read it, for
    /// its relative links and lab files; `translations` the languages whose files sit beside
    /// it (`ko`: `lesson.ko.yaml`), which the embed asks for. The embed shows its card, steps
    /// and exercises.
    Lesson {
        text: String,
        url: Option<String>,
        translations: Vec<String>,
    },
    /// The lab files the embed asked for ([`EmbedMessage::NeedFiles`]), by the path it asked
    /// for; `null`: the host could not read it.
    Files {
        files: std::collections::BTreeMap<String, Option<String>>,
    },
}

/// Largest YAML a host may load: the same cap as a share link's contents.
pub const MAX_LOAD_BYTES: usize = kpg_share::MAX_DECODED_BYTES;

impl HostMessage {
    /// Reads a message (as JSON text). `None` for anything that is not a valid host message.
    pub fn parse(json: &str) -> Option<HostMessage> {
        let v: Value = serde_json::from_str(json).ok()?;
        let kind = v.get("type")?.as_str()?;
        Some(match kind {
            "kpg:load" => {
                let yaml = v.get("yaml")?.as_str()?;
                if yaml.len() > MAX_LOAD_BYTES {
                    return None;
                }
                let at = match v.get("at") {
                    None | Some(Value::Null) => None,
                    Some(at) => Some(instant(at)?),
                };
                HostMessage::Load {
                    yaml: yaml.to_string(),
                    at,
                }
            }
            "kpg:play" => HostMessage::Play,
            "kpg:pause" => HostMessage::Pause,
            "kpg:seek" => HostMessage::Seek {
                at: instant(v.get("at")?)?,
            },
            "kpg:lang" => HostMessage::Lang(match v.get("lang")?.as_str()? {
                "en" => crate::base::i18n::Lang::En,
                "ko" => crate::base::i18n::Lang::Ko,
                _ => return None,
            }),
            "kpg:speed" => match v.get("speed")?.as_u64()? {
                s @ (1 | 10 | 60) => HostMessage::Speed(s as u32),
                _ => return None,
            },
            "kpg:lesson" => {
                let text = v.get("text")?.as_str()?;
                if text.len() > MAX_LOAD_BYTES {
                    return None;
                }
                let url = match v.get("url") {
                    None | Some(Value::Null) => None,
                    Some(u) => Some(u.as_str()?.to_string()),
                };
                // Language codes (`ko`, `pt-br`); a handful at most.
                let mut translations = Vec::new();
                if let Some(list) = v.get("translations").and_then(Value::as_array) {
                    for code in list.iter().take(8) {
                        let code = code.as_str()?;
                        let ok = !code.is_empty()
                            && code.len() <= 12
                            && code.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
                        if !ok {
                            return None;
                        }
                        translations.push(code.to_ascii_lowercase());
                    }
                }
                HostMessage::Lesson {
                    text: text.to_string(),
                    url,
                    translations,
                }
            }
            "kpg:files" => {
                let mut files = std::collections::BTreeMap::new();
                let mut total = 0;
                for (path, text) in v.get("files")?.as_object()? {
                    let text = match text {
                        Value::Null => None,
                        Value::String(t) => Some(t.clone()),
                        _ => return None,
                    };
                    total += text.as_ref().map_or(0, String::len);
                    files.insert(path.clone(), text);
                }
                if total > MAX_LOAD_BYTES {
                    return None;
                }
                HostMessage::Files { files }
            }
            _ => return None,
        })
    }
}

/// An instant: milliseconds as a number, or a Go duration (`5m`, `90s`).
fn instant(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => kpg_core::duration::parse(s).ok(),
        _ => None,
    }
}

/// What an embed tells its host.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type")]
pub enum EmbedMessage {
    /// Up and waiting for commands (and for a scenario, when the host sends it).
    #[serde(rename = "kpg:ready")]
    Ready { version: u32 },
    /// A `load` was applied.
    #[serde(rename = "kpg:loaded")]
    Loaded {
        ok: bool,
        documents: usize,
        errors: Vec<LoadError>,
        at: i64,
    },
    /// The embed's content height in CSS pixels: the host sizes the iframe to it.
    #[serde(rename = "kpg:resize")]
    Resize { height: u32 },
    #[serde(rename = "kpg:clock")]
    Clock { at: i64, playing: bool },
    #[serde(rename = "kpg:event")]
    Event { event: ClusterEvent },
    /// The lesson the host sent names these lab files (paths relative to the lesson, as the
    /// lesson resolves them): the host answers with `kpg:files`.
    #[serde(rename = "kpg:need-files")]
    NeedFiles { paths: Vec<String> },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoadError {
    /// Index of the document in the stream (0-based); the line and column (1-based) are in
    /// the whole YAML the host sent.
    pub document: usize,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Something the host may want to narrate: what changed in the cluster.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ClusterEvent {
    NodeLaunched {
        at: i64,
        node: String,
        node_pool: Option<String>,
        instance_type: String,
        capacity_type: String,
        zone: String,
    },
    NodeRemoved {
        at: i64,
        node: String,
        reason: String,
    },
    PodPending {
        at: i64,
        pod: String,
    },
    CostChanged {
        at: i64,
        /// Dollars per hour.
        per_hour: f64,
    },
}

impl EmbedMessage {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// What happened between two snapshots of the same simulation, in the order a reader
/// would tell it: launches, removals, newly pending pods, then the bill.
pub fn changes(before: &Snapshot, after: &Snapshot) -> Vec<ClusterEvent> {
    let at = after.time_ms;
    fn nodes(s: &Snapshot) -> Vec<(Option<String>, &crate::base::snapshot::NodeCard)> {
        s.lanes
            .iter()
            .flat_map(|l| {
                let pool = match &l.kind {
                    LaneKind::NodePool { name, .. } => Some(name.clone()),
                    LaneKind::Fixed => None,
                };
                l.nodes.iter().map(move |n| (pool.clone(), n))
            })
            .collect()
    }
    let (old, new) = (nodes(before), nodes(after));
    // A card keeps its NodeClaim's name from launch to removal; before it registers it
    // has no Node name, so identity is the NodeClaim when there is one.
    let id =
        |n: &crate::base::snapshot::NodeCard| n.nodeclaim.clone().unwrap_or_else(|| n.name.clone());
    // Sets of ids, so a frame of a 2,500-node embed costs a walk, not a square.
    let old_ids: BTreeSet<String> = old.iter().map(|(_, n)| id(n)).collect();
    let new_ids: BTreeSet<String> = new.iter().map(|(_, n)| id(n)).collect();
    let mut out = Vec::new();
    for (pool, n) in &new {
        if !old_ids.contains(&id(n)) {
            out.push(ClusterEvent::NodeLaunched {
                at,
                node: n.name.clone(),
                node_pool: pool.clone(),
                instance_type: n.instance_type.clone(),
                capacity_type: n.capacity_type.as_str().to_string(),
                zone: n.zone.clone(),
            });
        }
    }
    for (_, o) in &old {
        if !new_ids.contains(&id(o)) {
            let reason = match &o.fate {
                Some(Fate::Disrupting(r)) => r.clone(),
                Some(Fate::Drifted(_)) => "Drifted".into(),
                Some(Fate::Unhealthy { .. }) => "Unhealthy".into(),
                Some(Fate::SpotInterrupted) => "SpotInterrupted".into(),
                Some(Fate::ReservationInterrupted) => "CapacityReservationInterrupted".into(),
                Some(Fate::Expired) => "Expired".into(),
                None => "Deleted".into(),
            };
            out.push(ClusterEvent::NodeRemoved {
                at,
                node: o.name.clone(),
                reason,
            });
        }
    }
    let was_pending: BTreeSet<&str> = before.pending.iter().map(|p| p.key.as_str()).collect();
    for p in &after.pending {
        if !was_pending.contains(p.key.as_str()) {
            out.push(ClusterEvent::PodPending {
                at,
                pod: p.key.clone(),
            });
        }
    }
    if before.summary.cost_per_hour != after.summary.cost_per_hour {
        out.push(ClusterEvent::CostChanged {
            at,
            per_hour: after.summary.cost_per_hour as f64 / 1e6,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::player::Player;

    #[test]
    fn host_messages_read_strictly() {
        assert_eq!(
            HostMessage::parse(r#"{"type":"kpg:seek","at":"5m"}"#),
            Some(HostMessage::Seek { at: 300_000 })
        );
        assert_eq!(
            HostMessage::parse(r#"{"type":"kpg:seek","at":1500}"#),
            Some(HostMessage::Seek { at: 1500 })
        );
        assert_eq!(
            HostMessage::parse(r#"{"type":"kpg:load","yaml":"kind: Pod\n"}"#),
            Some(HostMessage::Load {
                yaml: "kind: Pod\n".into(),
                at: None
            })
        );
        assert_eq!(
            HostMessage::parse(r#"{"type":"kpg:speed","speed":60}"#),
            Some(HostMessage::Speed(60))
        );
        assert_eq!(
            HostMessage::parse(concat!(
                r#"{"type":"kpg:lesson","text":"id: x\n","url":"https://b.example/l.yaml","#,
                r#""translations":["KO","pt-br"]}"#
            )),
            Some(HostMessage::Lesson {
                text: "id: x\n".into(),
                url: Some("https://b.example/l.yaml".into()),
                translations: vec!["ko".into(), "pt-br".into()],
            })
        );
        for bad in [
            r#"{"type":"kpg:lesson","text":"id: x\n","translations":["../../etc"]}"#,
            r#"{"type":"kpg:lesson","text":"id: x\n","translations":[1]}"#,
            "",
            "null",
            "[]",
            "\"kpg:play\"",
            r#"{"type":"play"}"#,
            r#"{"type":"kpg:seek","at":-5}"#,
            r#"{"type":"kpg:seek","at":"soon"}"#,
            r#"{"type":"kpg:load","yaml":42}"#,
            r#"{"type":"kpg:speed","speed":7}"#,
            r#"{"type":"kpg:lang","lang":"fr"}"#,
            r#"{"type":"kpg:eval","code":"alert(1)"}"#,
        ] {
            assert_eq!(HostMessage::parse(bad), None, "{bad}");
        }
        let huge = format!(
            r#"{{"type":"kpg:load","yaml":"{}"}}"#,
            "a".repeat(MAX_LOAD_BYTES + 1)
        );
        assert_eq!(HostMessage::parse(&huge), None);
    }

    #[test]
    fn embed_messages_have_the_documented_shape() {
        let m = EmbedMessage::Event {
            event: ClusterEvent::NodeLaunched {
                at: 5,
                node: "n".into(),
                node_pool: Some("default".into()),
                instance_type: "t3.small".into(),
                capacity_type: "on-demand".into(),
                zone: "us-east-1a".into(),
            },
        };
        assert_eq!(
            m.to_json(),
            concat!(
                r#"{"type":"kpg:event","event":{"kind":"nodeLaunched","at":5,"node":"n","#,
                r#""nodePool":"default","instanceType":"t3.small","capacityType":"on-demand","#,
                r#""zone":"us-east-1a"}}"#
            )
        );
        assert_eq!(
            EmbedMessage::Ready { version: 1 }.to_json(),
            r#"{"type":"kpg:ready","version":1}"#
        );
    }

    #[test]
    fn a_launch_then_a_bill_then_a_removal() {
        let lab = crate::lessons::lab("seed000-hello-world");
        let mut p = Player::new();
        p.rebuild(lab, 0);
        let start = p.fresh_snapshot().unwrap();
        p.advance(10 * 60_000);
        let later = p.fresh_snapshot().unwrap();
        let events = changes(&start, &later);
        assert!(
            matches!(&events[0], ClusterEvent::NodeLaunched { node_pool: Some(p), .. }
                if p == "hello-world"),
            "{events:?}"
        );
        assert!(
            events.iter().any(
                |e| matches!(e, ClusterEvent::CostChanged { per_hour, .. } if *per_hour > 0.0)
            )
        );
        let back = changes(&later, &start);
        assert!(
            back.iter()
                .any(|e| matches!(e, ClusterEvent::NodeRemoved { .. })),
            "{back:?}"
        );
        assert!(
            back.iter()
                .any(|e| matches!(e, ClusterEvent::PodPending { .. })),
            "the nginx pod waits again: {back:?}"
        );
        assert!(changes(&later, &later).is_empty());
    }
}
