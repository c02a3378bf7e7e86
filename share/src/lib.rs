//! Share links and embeds: how a scenario travels in a URL and into an article.
//!
//! A share link is the page's address with the whole state in the fragment (never sent to a
//! server): `#kpg1.` followed by base64url (no padding) of the raw-deflated JSON of
//! [`Shared`]. The number in the prefix is the format's version: a later format gets a new
//! prefix, and [`decode`] keeps reading every version ever published, so links made today
//! keep opening. Decoding is bounded ([`MAX_LINK_CHARS`], [`MAX_DECODED_BYTES`]) and strict:
//! a damaged link is an error the page shows, never a half-read workspace.
//!
//! The page, `kpg share` and the tests share this one codec. Pure: no I/O, no clock.

mod documents;
mod embed;
mod figure;
mod html;
mod poster;

pub use documents::split_documents;
pub use embed::{
    EmbedOptions, Live, Theme, View, iframe_snippet, page_base, playground_dir, script_snippet,
};
pub use figure::{PREVIEW_IMAGE, embed_poster, figure_preview_page, figure_snippet, preview_card};
pub use html::escape as escape_html;
pub use poster::{POSTER_MARK, Preview, poster_snippet, preview_page};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use std::collections::BTreeMap;

use kpg_lesson::prepared::ReadRequest;
use serde::{Deserialize, Serialize};

/// The current format's fragment prefix.
pub const PREFIX: &str = "kpg1.";

/// Longest fragment [`decode`] looks at (characters). Well past what a browser keeps in an
/// address bar, so only a hostile or broken link reaches it.
pub const MAX_LINK_CHARS: usize = 4 * 1024 * 1024;

/// Most bytes a link may inflate to. A deflate stream can expand a thousandfold; the cap
/// keeps a crafted link from taking the page's memory. A 1 MiB workspace is far beyond any
/// lesson (the largest lab is under 4 KB).
pub const MAX_DECODED_BYTES: usize = 1024 * 1024;

/// Links longer than this are hard to paste into chat tools and issue trackers; the page
/// offers a `.yaml` download beside them.
pub const LONG_LINK_CHARS: usize = 8 * 1024;

/// What a share link carries: everything the sharer sees.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Shared {
    /// The manifests, one per tab, in tab order.
    pub docs: Vec<String>,
    /// Index in `docs` of the open tab.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub active: usize,
    /// The lesson (its stable id) and step, if the sharer was in one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson: Option<String>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub step: usize,
    /// The simulated instant, in milliseconds.
    #[serde(default, skip_serializing_if = "is_zero_ms")]
    pub at: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<Selection>,
    /// The open bottom tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab: Option<BottomTab>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<u32>,
    /// `en` or `ko`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// The cluster at `at` as the sharer saw it, for the page to draw as the link's first
    /// frame before its engine has arrived ([`kpg_scene::poster`]). A page that does not
    /// know the field ignores it; a link without it opens as before, only later.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub figure: Option<kpg_scene::poster::Figure>,
    /// The lesson itself, when it is not one of the page's own (a lesson from an article, or
    /// one `kpg share` was given): its files, which the opening page reads as the embed read
    /// them. `lesson` is then its id. A page that does not know the field opens the link's
    /// manifests without the lesson.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson_files: Option<LessonFiles>,
}

/// A lesson's files as a link carries them: nothing in them runs; the page's lesson reader
/// reads them as it reads a lesson in an article.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LessonFiles {
    /// The lesson file's name as its lab paths resolve against it (`/posts/lesson.yaml`).
    pub file: String,
    /// Its text (the English).
    pub text: String,
    /// Translations' texts by language code (`ko`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub translations: BTreeMap<String, String>,
    /// The lab files it names, by resolved path.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labs: BTreeMap<String, String>,
    /// The address the lesson was read from, if any: its relative links lead there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
}

impl LessonFiles {
    /// What a link carries of a lesson the reader read from `request`: the lab files it found
    /// (one it could not is left out, and is asked for again).
    pub fn of(request: &ReadRequest) -> LessonFiles {
        LessonFiles {
            file: request.file.clone(),
            text: request.text.clone(),
            translations: request.translations.clone(),
            labs: request
                .files
                .iter()
                .filter_map(|(path, text)| Some((path.clone(), text.clone()?)))
                .collect(),
            base: request.base.clone(),
        }
    }

    /// The request that reads the lesson again, its labs and translations all there.
    pub fn request(&self) -> ReadRequest {
        ReadRequest {
            file: self.file.clone(),
            text: self.text.clone(),
            translations: self.translations.clone(),
            files: self
                .labs
                .iter()
                .map(|(path, text)| (path.clone(), Some(text.clone())))
                .collect(),
            base: self.base.clone(),
        }
    }
}

/// The pod (`namespace/name`) or node being explained.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Selection {
    Pod(String),
    Node(String),
}

/// The tabs under the cluster view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum BottomTab {
    Events,
    Explain,
    Terminal,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

fn is_zero_ms(n: &u64) -> bool {
    *n == 0
}

/// Why a link cannot be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// The fragment is not a share link at all (some other anchor).
    NotALink,
    /// Made by a newer version of the playground than this one.
    NewerVersion(u32),
    /// Longer than [`MAX_LINK_CHARS`] or inflates past [`MAX_DECODED_BYTES`].
    TooLarge,
    /// Cut short or altered: not base64url, not deflate, not the expected JSON.
    Damaged(String),
}

impl core::fmt::Display for LinkError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LinkError::NotALink => f.write_str("not a Karpenter Playground link"),
            LinkError::NewerVersion(v) => write!(
                f,
                "made by a newer version of the playground (format {v}); reload to update"
            ),
            LinkError::TooLarge => write!(
                f,
                "larger than the {} KiB a link may hold",
                MAX_DECODED_BYTES / 1024
            ),
            LinkError::Damaged(why) => write!(f, "damaged or cut short ({why})"),
        }
    }
}

impl std::error::Error for LinkError {}

/// The fragment (without `#`) that carries `shared`.
pub fn encode(shared: &Shared) -> String {
    // Serializing plain strings and integers cannot fail.
    let json = serde_json::to_vec(shared).unwrap_or_default();
    let deflated = miniz_oxide::deflate::compress_to_vec(&json, 10);
    let mut out = String::with_capacity(PREFIX.len() + deflated.len() * 4 / 3 + 4);
    out.push_str(PREFIX);
    URL_SAFE_NO_PAD.encode_string(&deflated, &mut out);
    out
}

/// Whether a fragment (with or without `#`) looks like a share link of any version, so the
/// page can tell "a damaged link" from "some other anchor".
pub fn is_link(fragment: &str) -> bool {
    version_of(fragment.strip_prefix('#').unwrap_or(fragment)).is_some()
}

/// `kpg<N>.` → N.
fn version_of(fragment: &str) -> Option<(u32, &str)> {
    let rest = fragment.strip_prefix("kpg")?;
    let (n, data) = rest.split_once('.')?;
    if n.is_empty() || n.len() > 4 || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((n.parse().ok()?, data))
}

/// Reads a link's fragment (with or without `#`).
pub fn decode(fragment: &str) -> Result<Shared, LinkError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let (version, data) = version_of(fragment).ok_or(LinkError::NotALink)?;
    if fragment.len() > MAX_LINK_CHARS {
        return Err(LinkError::TooLarge);
    }
    match version {
        1 => decode_v1(data),
        v if v > 1 => Err(LinkError::NewerVersion(v)),
        _ => Err(LinkError::NotALink),
    }
}

fn decode_v1(data: &str) -> Result<Shared, LinkError> {
    // Chat tools sometimes append punctuation or wrap long links; whitespace never belongs
    // to base64url, so it is dropped rather than refused.
    let data: String = data.chars().filter(|c| !c.is_whitespace()).collect();
    let deflated = URL_SAFE_NO_PAD
        .decode(data.as_bytes())
        .map_err(|e| LinkError::Damaged(format!("base64: {e}")))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_DECODED_BYTES)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => LinkError::TooLarge,
            _ => LinkError::Damaged("not a compressed scenario".into()),
        })?;
    // Read as text, as the page reads its saved session: one reader's worth of
    // deserializing code in the page's wasm, not two.
    let json =
        std::str::from_utf8(&json).map_err(|_| LinkError::Damaged("contents: not UTF-8".into()))?;
    let shared: Shared =
        serde_json::from_str(json).map_err(|e| LinkError::Damaged(format!("contents: {e}")))?;
    validate(&shared)?;
    Ok(shared)
}

/// What every reader of a link may rely on.
fn validate(s: &Shared) -> Result<(), LinkError> {
    let damaged = |why: &str| Err(LinkError::Damaged(why.into()));
    if s.docs.is_empty() || s.docs.iter().all(|d| d.trim().is_empty()) {
        return damaged("no manifests");
    }
    if s.active >= s.docs.len() {
        return damaged("open tab out of range");
    }
    if let Some(speed) = s.speed
        && ![1, 10, 60].contains(&speed)
    {
        return damaged("unknown speed");
    }
    if let Some(lang) = &s.lang
        && !["en", "ko"].contains(&lang.as_str())
    {
        return damaged("unknown language");
    }
    if let Some(files) = &s.lesson_files
        && (files.file.trim().is_empty() || s.lesson.is_none())
    {
        return damaged("a lesson without its name");
    }
    Ok(())
}

/// `base` (any URL of the page; its own fragment is dropped) with `shared` in the fragment.
pub fn link(base: &str, shared: &Shared) -> String {
    let base = base.split_once('#').map_or(base, |(b, _)| b);
    format!("{base}#{}", encode(shared))
}

/// A scenario file as a link: its documents as tabs, the first open, at `at` ms.
pub fn from_stream(text: &str, at: u64) -> Shared {
    Shared {
        docs: split_documents(text),
        at,
        ..Shared::default()
    }
}

/// The documents joined as one multi-document YAML stream (what a download holds).
pub fn to_stream(docs: &[String]) -> String {
    let mut out = String::new();
    for (i, d) in docs.iter().enumerate() {
        if i > 0 {
            out.push_str("---\n");
        }
        out.push_str(d);
        if !d.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Shared {
        Shared {
            docs: vec![
                "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: default\n".into(),
                "# 한국어 주석\nkind: Pod\n".into(),
            ],
            active: 1,
            lesson: Some("labels-taints".into()),
            step: 2,
            at: 125_000,
            selected: Some(Selection::Pod("default/web-0".into())),
            tab: Some(BottomTab::Explain),
            speed: Some(60),
            lang: Some("ko".into()),
            figure: Some(figure()),
            lesson_files: None,
        }
    }

    /// A link from a lesson that is not the page's own: its files ride along.
    fn with_lesson() -> Shared {
        Shared {
            lesson: Some("from-a-blog".into()),
            lesson_files: Some(LessonFiles {
                file: "/posts/lesson.yaml".into(),
                text: "id: from-a-blog\ntitle: From a blog\nlab: labs/pod.yaml\n".into(),
                translations: [("ko".to_string(), "id: from-a-blog\ntitle: 블로그\n".into())]
                    .into(),
                labs: [("/posts/labs/pod.yaml".to_string(), "kind: Pod\n".into())].into(),
                base: Some("https://blog.example/posts/lesson.yaml".into()),
            }),
            ..sample()
        }
    }

    fn figure() -> kpg_scene::poster::Figure {
        use kpg_scene::poster::{Figure, FigureLane, FigureNode};
        use kpg_scene::snapshot::CardState;
        Figure {
            title: "NodePool/default".into(),
            at_ms: 125_000,
            nodes: 1,
            cost_per_hour: 41_600,
            pods_running: 2,
            pods_pending: 1,
            cpu: (500, 1_930),
            memory: (1 << 30, 3 << 30),
            decision: None,
            lanes: vec![FigureLane {
                pool: Some("default".into()),
                nodes: vec![FigureNode {
                    instance_type: "t3.medium".into(),
                    zone: "us-east-1a".into(),
                    capacity_type: kpg_core::catalog::CapacityType::Spot,
                    state: CardState::Ready,
                    price_per_hour: 41_600,
                    cpu: (500, 1_930),
                    memory: (1 << 30, 3 << 30),
                    pods: vec![0, 1],
                    daemons: 1,
                    fate: None,
                }],
                groups: Vec::new(),
            }],
            pending: vec![0],
            pending_groups: Vec::new(),
        }
    }

    #[test]
    fn a_link_round_trips_everything_it_carries() {
        let s = sample();
        let fragment = encode(&s);
        assert!(fragment.starts_with("kpg1."));
        assert!(
            fragment[5..]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
            "only URL-safe characters: {fragment}"
        );
        assert_eq!(decode(&fragment), Ok(s.clone()));
        assert_eq!(decode(&format!("#{fragment}")), Ok(s));
        let s = with_lesson();
        assert_eq!(decode(&encode(&s)), Ok(s));
    }

    #[test]
    fn links_compress() {
        let lab = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n".repeat(40);
        let fragment = encode(&from_stream(&lab, 0));
        assert!(
            fragment.len() * 4 < lab.len(),
            "{} vs {}",
            fragment.len(),
            lab.len()
        );
    }

    /// A link made by the first published version, kept verbatim: every later version of
    /// the page must still open it. Never regenerate this string.
    #[test]
    fn a_version_1_link_keeps_opening() {
        const V1: &str = "kpg1.bcw7DsJADEXRrYxcR3waCi8CpaJhKCxslFEmdjQ2NIi9E2gQUl75pHOfwHZ1wDPQXE7S\
                          vJhiGqnNoiFt48P2sc86FmVMR2PpzWrWSYKYgjBrSkqTYGK50b1GVuj-Wj_eG6_\
                          KQWq1xV06qOJuCgjf71MKwMNu2esN";
        let s = decode(V1).expect("the v1 link opens");
        assert_eq!(s.docs.len(), 2);
        assert!(s.docs[0].contains("kind: NodePool"));
        assert_eq!(s.lesson.as_deref(), Some("hello"));
        assert_eq!(s.at, 60_000);
    }

    #[test]
    fn damaged_links_are_errors_not_half_workspaces() {
        let good = encode(&sample());
        let cut = &good[..good.len() / 2];
        assert!(matches!(decode(cut), Err(LinkError::Damaged(_))), "{cut}");
        let mut flipped = good.clone().into_bytes();
        let mid = flipped.len() / 2;
        flipped[mid] = if flipped[mid] == b'A' { b'B' } else { b'A' };
        assert!(decode(std::str::from_utf8(&flipped).unwrap()).is_err());
        assert!(matches!(decode("kpg1.!!!"), Err(LinkError::Damaged(_))));
        assert_eq!(decode("section-2"), Err(LinkError::NotALink));
        assert_eq!(decode(""), Err(LinkError::NotALink));
        assert_eq!(decode("kpg7.abc"), Err(LinkError::NewerVersion(7)));
        assert!(is_link("#kpg1.x") && is_link("kpg12.y") && !is_link("#kpg.x"));
    }

    #[test]
    fn contents_that_no_page_could_have_made_are_refused() {
        let mut s = sample();
        s.docs.clear();
        assert!(decode(&encode(&s)).is_err());
        let mut s = sample();
        s.active = 5;
        assert!(decode(&encode(&s)).is_err());
        let mut s = sample();
        s.speed = Some(7);
        assert!(decode(&encode(&s)).is_err());
        let mut s = sample();
        s.lang = Some("<script>".into());
        assert!(decode(&encode(&s)).is_err());
        let mut s = with_lesson();
        s.lesson = None;
        assert!(
            decode(&encode(&s)).is_err(),
            "a lesson's files without its id"
        );
        let mut s = with_lesson();
        s.lesson_files.as_mut().unwrap().file.clear();
        assert!(
            decode(&encode(&s)).is_err(),
            "a lesson's files without its name"
        );
    }

    #[test]
    fn a_bomb_is_refused_before_it_fills_memory() {
        // 64 MiB of one byte deflates to a few KB; inflating stops at the cap.
        let json = format!("{{\"docs\":[\"{}\"]}}", "a".repeat(64 << 20));
        let deflated = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 10);
        let fragment = format!("kpg1.{}", URL_SAFE_NO_PAD.encode(deflated));
        assert!(fragment.len() < 200_000);
        assert_eq!(decode(&fragment), Err(LinkError::TooLarge));
        let long = format!("kpg1.{}", "A".repeat(MAX_LINK_CHARS));
        assert_eq!(decode(&long), Err(LinkError::TooLarge));
    }

    #[test]
    fn unknown_fields_from_later_pages_are_ignored() {
        let json = br#"{"docs":["kind: Pod\n"],"at":5,"compare":{"docs":[]}}"#;
        let fragment = format!(
            "kpg1.{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json, 10))
        );
        assert_eq!(decode(&fragment).unwrap().at, 5);
    }

    #[test]
    fn link_replaces_the_base_fragment() {
        let s = from_stream("kind: Pod\n", 0);
        let l = link("https://example.com/kpg/#kpg1.old", &s);
        assert!(l.starts_with("https://example.com/kpg/#kpg1."));
        assert_eq!(l.matches('#').count(), 1);
    }

    #[test]
    fn streams_split_and_join_back() {
        let text = "a: 1\n---\nb: 2\n--- # second\nc: 3\n";
        let docs = split_documents(text);
        assert_eq!(docs, ["a: 1\n", "b: 2\n", "c: 3\n"]);
        assert_eq!(to_stream(&docs), "a: 1\n---\nb: 2\n---\nc: 3\n");
    }
}

/// What [`pack`] puts before its data, so a reader tells packed text from plain.
pub const PACKED_PREFIX: &str = "kpgz1.";

/// `text` deflated (fast level: this runs as the learner types) and in base64url, behind
/// [`PACKED_PREFIX`]: how the page keeps a workspace too large for local storage as it is.
/// YAML shrinks several times over.
pub fn pack(text: &str) -> String {
    let deflated = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 1);
    let mut out = String::with_capacity(PACKED_PREFIX.len() + deflated.len() * 4 / 3 + 4);
    out.push_str(PACKED_PREFIX);
    URL_SAFE_NO_PAD.encode_string(&deflated, &mut out);
    out
}

/// The text [`pack`] packed, at most `limit` bytes of it; `None` if `packed` is not packed
/// text or is damaged.
pub fn unpack(packed: &str, limit: usize) -> Option<String> {
    let data = packed.strip_prefix(PACKED_PREFIX)?;
    let deflated = URL_SAFE_NO_PAD.decode(data.as_bytes()).ok()?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, limit).ok()?;
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod pack_tests {
    use super::*;

    #[test]
    fn packed_text_comes_back_whole_and_smaller() {
        let yaml = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n".repeat(5_000);
        let packed = pack(&yaml);
        assert!(packed.starts_with(PACKED_PREFIX));
        assert!(
            packed.len() * 5 < yaml.len(),
            "{} vs {}",
            packed.len(),
            yaml.len()
        );
        assert_eq!(unpack(&packed, yaml.len()).as_deref(), Some(yaml.as_str()));
        assert_eq!(unpack(&packed, yaml.len() - 1), None, "past the limit");
        assert_eq!(
            unpack("{\"version\":1}", 1 << 20),
            None,
            "plain text is not packed"
        );
        assert_eq!(
            unpack(&packed[..packed.len() / 2], 1 << 20),
            None,
            "cut short"
        );
    }
}
