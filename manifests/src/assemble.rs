//! From documents to a scenario: reading each document on its own, then the checks that span
//! documents (duplicates, references, size caps) and the final [`Scenario`].

use std::collections::{BTreeMap, BTreeSet, HashMap};

use kpg_core::model::{AppliedObject, Scenario, TimelineAction, WorkloadKind};

use crate::codes::Code;
use crate::convert::playground::{self, MAX_PODS, Step};
use crate::convert::pod::POD_OVERHEAD;
use crate::convert::{self, Converted, Object, Site, object_label, peek};
use crate::diagnostic::{Diagnostic, Korean, Severity};
use crate::document::{self, Piece};
use crate::reader::{Cx, Field, Fields, Need, Needed, Ref};
use crate::yaml::{self, Pos, Value};

mod admission;
mod automode;
mod priority;
mod snapshot;

impl Accepted {
    /// The object `cx` converted, unless its checks found an error (its findings are the
    /// caller's to tell).
    fn of(cx: Cx, converted: Option<Converted>) -> Option<Accepted> {
        let converted = converted.filter(|_| cx.error_count() == 0)?;
        Some(Accepted {
            doc: cx.doc,
            label: object_label(
                converted.kind,
                Some(&converted.namespace),
                Some(&converted.name),
            ),
            converted,
            refs: cx.refs,
            needs: cx.needs,
            dropped: false,
            inert: false,
        })
    }
}

/// An object that passed its own document's checks.
struct Accepted {
    doc: usize,
    label: String,
    converted: Converted,
    refs: Vec<Ref>,
    needs: Vec<Needed>,
    dropped: bool,
    /// Kept as written (the API server holds it) but not simulated: a controller whose pods
    /// admission refuses.
    inert: bool,
}

/// Namespaces every cluster has.
const BUILTIN_NAMESPACES: &[&str] = &["default", "kube-system", "kube-public", "kube-node-lease"];

pub(crate) fn load(text: &str, diagnostics: &mut Vec<Diagnostic>) -> Scenario {
    let mut accepted = Vec::new();
    for piece in document::split(text) {
        read_piece(&piece, &mut accepted, diagnostics);
    }
    let scenario = assemble(accepted, diagnostics);
    diagnostics.sort_by_key(|d| (d.document, d.line, d.column));
    scenario
}

fn read_piece(piece: &Piece<'_>, accepted: &mut Vec<Accepted>, diagnostics: &mut Vec<Diagnostic>) {
    // The root's `items` are read one at a time as the parser reaches them (a `List` from
    // `kubectl get` may be tens of megabytes); whether the document is a `List` is known
    // only once its `kind` is read, after them, so a document that turns out not to be one
    // is read again as a whole.
    let mut items = ListItems::new(piece.index);
    let parsed = yaml::parse_items(&piece.text, piece.line_offset, &mut |item| items.read(item));
    let parsed = match parsed {
        Ok(p) => p,
        Err(e) => {
            let (kind, name, namespace) = document::scan_identity(&piece.text);
            diagnostics.push(Diagnostic {
                severity: Severity::Error,
                code: Code::YamlSyntax,
                document: piece.index,
                object: kind.map(|k| object_label(&k, namespace.as_deref(), name.as_deref())),
                path: String::new(),
                line: e.pos.line.max(1),
                column: e.pos.col.max(1),
                message: format!("YAML syntax error: {}", e.message),
                help: Some(
                    "check the indentation and quoting around this line; the rest \
                     of the document is skipped"
                        .into(),
                ),
                ko: Some(Korean {
                    message: format!("YAML 문법 오류: {}", e.message),
                    help: Some(
                        "이 줄 주변의 들여쓰기와 따옴표를 확인하세요. \
                         문서의 나머지 부분은 건너뜁니다"
                            .into(),
                    ),
                }),
            });
            return;
        }
    };
    let root = &parsed.root;
    if root.is_null() {
        return;
    }
    let (kind, name, namespace) = peek(root);
    let is_list = matches!(kind, Some("List")) && matches!(&root.value, Value::Map(_));
    if items.count > 0 && !is_list {
        // Not a List after all: its `items` belong to the object.
        match yaml::parse(&piece.text, piece.line_offset) {
            Ok(whole) => return read_object(piece, whole, accepted, diagnostics),
            Err(_) => return,
        }
    }
    let label = kind.map(|k| object_label(k, namespace, name));
    let mut cx = Cx::new(piece.index, label);
    duplicate_keys(&mut cx, &parsed);
    if is_list {
        read_list(&mut cx, root);
        let ok = cx.error_count() == 0;
        diagnostics.append(&mut cx.diags);
        items.finish(ok, accepted, diagnostics);
        return;
    }
    read_object(piece, parsed, accepted, diagnostics)
}

fn duplicate_keys(cx: &mut Cx, parsed: &yaml::Parsed) {
    for d in &parsed.duplicates {
        let path = crate::reader::join(&d.path, &d.key);
        cx.error(
            Code::DuplicateField,
            &path,
            d.pos,
            format!(
                "`{}` is given twice (first at line {})",
                d.key, d.first.line
            ),
            Some("keep one of them".into()),
        );
        cx.ko(
            format!(
                "`{}`가 두 번 나옵니다(처음은 {}번째 줄)",
                d.key, d.first.line
            ),
            Some("하나만 남기세요".into()),
        );
    }
}

/// A document that is one object.
fn read_object(
    piece: &Piece<'_>,
    parsed: yaml::Parsed,
    accepted: &mut Vec<Accepted>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let root = &parsed.root;
    if root.is_null() {
        return;
    }
    let (kind, name, namespace) = peek(root);
    let label = kind.map(|k| object_label(k, namespace, name));
    let mut cx = Cx::new(piece.index, label);
    duplicate_keys(&mut cx, &parsed);
    let converted = convert::convert(&mut cx, &Field::root(root, ""), Site::Document);
    diagnostics.append(&mut cx.diags);
    accepted.extend(Accepted::of(cx, converted));
}

/// `kind: List` (what `kubectl get -o yaml` prints): the list's own fields. Its items are
/// read as they are parsed ([`ListItems`]).
fn read_list(cx: &mut Cx, root: &yaml::Node) {
    let root_field = Field::root(root, "");
    let mut f = Fields::of(cx, &root_field);
    f.ignore(&["apiVersion", "kind", "metadata"]);
    if let Some(items) = f.get("items")
        && !matches!(items.node.value, Value::Seq(_))
    {
        cx.seq(&items);
    }
    f.finish(cx);
}

/// A `List`'s items, each read as its own object as soon as the parser has built it.
struct ListItems {
    doc: usize,
    count: usize,
    accepted: Vec<Accepted>,
    alike: Alike,
}

impl ListItems {
    fn new(doc: usize) -> ListItems {
        ListItems {
            doc,
            count: 0,
            accepted: Vec::new(),
            alike: Alike::default(),
        }
    }

    fn read(&mut self, item: yaml::Node) {
        let field = Field {
            node: &item,
            path: format!("items[{}]", self.count),
            key_pos: item.pos,
        };
        self.count += 1;
        let (kind, name, namespace) = peek(&item);
        let mut icx = Cx::new(self.doc, kind.map(|k| object_label(k, namespace, name)));
        let converted = convert::convert(&mut icx, &field, Site::Document);
        for d in icx.diags.drain(..) {
            self.alike.add(kind.unwrap_or(""), d);
        }
        self.accepted.extend(Accepted::of(icx, converted));
    }

    /// The items' findings, and the items themselves unless the List has errors of its own.
    fn finish(
        self,
        list_ok: bool,
        accepted: &mut Vec<Accepted>,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        self.alike.finish(diagnostics);
        if list_ok {
            accepted.extend(self.accepted);
        }
    }
}

/// A `List` from `kubectl get` holds hundreds of objects alike: a warning its items share
/// (the same finding at the same field of the same kind) is told once, with how many more
/// items it applies to, instead of once per item. Errors are always told one by one.
#[derive(Default)]
struct Alike {
    /// The warnings in order of first appearance, each with how many items repeat it.
    told: Vec<(Diagnostic, usize)>,
    /// (code, kind, path without `items[i]`) → index into `told`.
    seen: HashMap<(Code, String, String), usize>,
}

impl Alike {
    fn add(&mut self, kind: &str, d: Diagnostic) {
        if d.is_error() {
            self.told.push((d, 0));
            return;
        }
        let path = match d.path.strip_prefix("items[") {
            Some(rest) => rest.split_once(']').map_or("", |(_, p)| p).to_string(),
            None => d.path.clone(),
        };
        // An unknown kind is one finding per kind, whatever the field.
        let key = (d.code, kind.to_string(), path);
        match self.seen.get(&key) {
            Some(&i) => self.told[i].1 += 1,
            None => {
                self.seen.insert(key, self.told.len());
                self.told.push((d, 0));
            }
        }
    }

    fn finish(self, diagnostics: &mut Vec<Diagnostic>) {
        for (mut d, more) in self.told {
            if more > 0 {
                let s = if more == 1 { "" } else { "s" };
                d.message = format!("{} (and {more} more item{s} like it)", d.message);
                if let Some(ko) = &mut d.ko {
                    ko.message = format!("{} (같은 항목 {more}개 더)", ko.message);
                }
            }
            diagnostics.push(d);
        }
    }
}

trait WithKorean {
    fn with_ko(self, message: String, help: Option<String>) -> Diagnostic;
}

impl WithKorean for Diagnostic {
    fn with_ko(mut self, message: String, help: Option<String>) -> Diagnostic {
        self.ko = Some(Korean { message, help });
        self
    }
}

fn diag(
    severity: Severity,
    code: Code,
    a: &Accepted,
    path: &str,
    pos: Pos,
    message: String,
    help: Option<String>,
) -> Diagnostic {
    Diagnostic {
        severity,
        code,
        document: a.doc,
        object: Some(a.label.clone()),
        path: path.to_string(),
        line: pos.line.max(1),
        column: pos.col.max(1),
        message,
        help,
        ko: None,
    }
}

fn assemble(mut accepted: Vec<Accepted>, diagnostics: &mut Vec<Diagnostic>) -> Scenario {
    duplicates(&mut accepted, diagnostics);
    versions_and_gates(&mut accepted, diagnostics);
    let auto_mode = automode::resolve(&mut accepted, diagnostics);
    references(&mut accepted, diagnostics);
    admission::runtime_classes(&mut accepted, diagnostics);
    priority::resolve(&mut accepted, diagnostics);
    let (nodes, snapshot_time) = snapshot::resolve(&mut accepted, diagnostics);
    pod_cap(&mut accepted, diagnostics);
    immutable_fields(&mut accepted, diagnostics);

    let mut scenario = Scenario {
        nodes,
        snapshot_time,
        ..Scenario::default()
    };
    let mut written = Vec::new();
    let mut steps: Vec<Step> = Vec::new();
    let mut v1beta1_kubelets = Vec::new();
    for a in accepted.into_iter().filter(|a| !a.dropped) {
        if let (Some(k), Object::NodePool(np)) = (a.converted.v1beta1_kubelet, &a.converted.object)
        {
            v1beta1_kubelets.push((np.name.clone(), np.node_class_ref.name.clone(), k));
        }
        if !matches!(a.converted.object, Object::Timeline(_)) {
            written.push(a.converted.written);
        }
        if a.inert {
            continue;
        }
        match a.converted.object {
            Object::NodePool(np) => scenario.node_pools.push(np),
            Object::NodeClass(nc) => scenario.node_classes.push(nc),
            Object::Workload(w) => scenario.workloads.push(w),
            Object::Pdb(p) => scenario.pdbs.push(p),
            Object::NoOp => {}
            Object::Namespace(n) => scenario.namespaces.push(n),
            Object::PriorityClass(c) => scenario.priority_classes.push(c),
            Object::Cluster(c) => scenario.cluster = c,
            Object::InstanceType(t) => scenario.instance_types.push(t),
            Object::NodeOverlay(o) => scenario.node_overlays.push(o),
            Object::CapacityReservation(c) => scenario.capacity_reservations.push(c),
            Object::Timeline(s) => steps.extend(s),
            Object::StorageClass(c) => scenario.storage.classes.push(c),
            Object::Claim(c) => scenario.storage.claims.push(c),
            Object::Volume(v) => scenario.storage.volumes.push(v),
            // A snapshot's nodes are `scenario.nodes` already (`snapshot::resolve`).
            Object::Node(_) | Object::NodeClaim(_) => {}
            // Admission has given the classes to their pods (`admission`).
            Object::RuntimeClass(_) => {}
            Object::CapacityBuffer(b) => scenario.capacity_buffers.push(b),
            Object::PodTemplate(t) => scenario.pod_templates.push(t),
        }
    }
    give_kubelets_to_classes(&mut scenario, v1beta1_kubelets);
    // EKS Auto Mode: the mode the documents say or imply, and what EKS adds to the cluster
    // itself (the built-in NodeClass, and the built-in NodePools switched on).
    if let kpg_core::automode::Mode::EksAutoMode(builtin) = &auto_mode.mode {
        scenario
            .node_classes
            .push(kpg_core::automode::builtin_node_class());
        scenario
            .node_pools
            .extend(kpg_core::automode::builtin_pools(*builtin));
    }
    scenario.cluster.karpenter.mode = auto_mode.mode;
    // Steps run in time order; steps at the same time keep the order they were written in.
    steps.sort_by_key(|s| s.step.at);
    for (i, s) in steps.iter_mut().enumerate() {
        if let Some(mut object) = s.written.take() {
            object.step = Some(i);
            written.push(object);
        }
    }
    scenario.written = written.into();
    scenario.timeline = steps.into_iter().map(|s| s.step).collect();
    scenario
}

/// Fields the scenario's Karpenter does not have: the API server of an older version refuses the
/// object (its CRD has no such field or value), so the object is left out; a feature whose gate
/// is off is kept, and Karpenter ignores it.
fn versions_and_gates(accepted: &mut [Accepted], diagnostics: &mut Vec<Diagnostic>) {
    let karpenter = accepted
        .iter()
        .rev()
        .find_map(|a| match &a.converted.object {
            Object::Cluster(c) if !a.dropped => Some(c.karpenter.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let version = karpenter.version;
    for a in accepted.iter_mut().filter(|a| !a.dropped) {
        let mut drop = false;
        for n in &a.needs {
            match n.need {
                Need::Version(b) if !karpenter.follows(b) => {
                    let since = b.since();
                    diagnostics.push(
                        diag(
                            Severity::Error,
                            n.code,
                            a,
                            &n.path,
                            n.pos,
                            format!(
                                "{} needs Karpenter {since} or later ({}); the scenario \
                                 assumes {version}, whose API server refuses it",
                                n.what,
                                b.what()
                            ),
                            Some(format!(
                                "set `spec.karpenter.version: {since}` (or later) in the \
                                 Cluster document, or remove {}",
                                n.what
                            )),
                        )
                        .with_ko(
                            format!(
                                "{}에는 Karpenter {since} 이상이 필요합니다. 시나리오는 \
                                 {version}을 가정하며, 그 API 서버는 이를 거부합니다",
                                n.what
                            ),
                            Some(format!(
                                "Cluster 문서에 `spec.karpenter.version: {since}` 이상을 쓰거나 \
                                 {}를 지우세요",
                                n.what
                            )),
                        ),
                    );
                    drop = true;
                }
                Need::Effect(b) if !karpenter.follows(b) => {
                    let since = b.since();
                    diagnostics.push(
                        diag(
                            Severity::Warning,
                            n.code,
                            a,
                            &n.path,
                            n.pos,
                            format!(
                                "{} has no effect before Karpenter {since} ({}); the scenario \
                                 assumes {version}",
                                n.what,
                                b.what()
                            ),
                            Some(format!(
                                "set `spec.karpenter.version: {since}` (or later) in the \
                                 Cluster document to see it work"
                            )),
                        )
                        .with_ko(
                            format!(
                                "{}는 Karpenter {since} 이전에는 효과가 없습니다. 시나리오는 \
                                 {version}을 가정합니다",
                                n.what
                            ),
                            Some(format!(
                                "효과를 보려면 Cluster 문서에 `spec.karpenter.version: {since}` \
                                 이상을 쓰세요"
                            )),
                        ),
                    );
                }
                Need::GateExists(g) if g.default_at(version).is_none() => {
                    diagnostics.push(
                        diag(
                            Severity::Warning,
                            n.code,
                            a,
                            &n.path,
                            n.pos,
                            format!(
                                "{version} has no {g} feature gate (it came in {}); Karpenter \
                                 {version} would refuse to start with it, and the playground \
                                 ignores it",
                                g.since()
                            ),
                            Some(format!(
                                "remove it, or set `version: {}` (or later)",
                                g.since()
                            )),
                        )
                        .with_ko(
                            format!(
                                "{version}에는 {g} 기능 게이트가 없습니다({}에 추가됨). \
                                 Karpenter {version}은 이 게이트로는 시작하지 않으며 \
                                 플레이그라운드는 무시합니다",
                                g.since()
                            ),
                            Some(format!("지우거나 `version: {}` 이상으로 쓰세요", g.since())),
                        ),
                    );
                }
                Need::Gate(g) if !karpenter.gate(g) => {
                    let (why, why_ko) = if g.default_at(version).is_none() {
                        (
                            format!("{version} has no {g} gate (it came in {})", g.since()),
                            format!(
                                "{version}에는 {g} 게이트가 없습니다({}에 추가됨)",
                                g.since()
                            ),
                        )
                    } else {
                        (
                            format!("the {g} feature gate is off in {version}"),
                            format!("{version}에서 {g} 기능 게이트가 꺼져 있습니다"),
                        )
                    };
                    diagnostics.push(
                        diag(
                            Severity::Warning,
                            n.code,
                            a,
                            &n.path,
                            n.pos,
                            format!("{} is ignored: {why}", n.what),
                            Some(format!(
                                "turn the gate on in the Cluster document: \
                                 `spec.karpenter.featureGates: {{{g}: true}}`"
                            )),
                        )
                        .with_ko(
                            format!("{}는 무시됩니다. {why_ko}", n.what),
                            Some(format!(
                                "Cluster 문서에서 게이트를 켜세요: \
                                 `spec.karpenter.featureGates: {{{g}: true}}`"
                            )),
                        ),
                    );
                }
                _ => {}
            }
        }
        if drop {
            a.dropped = true;
        }
    }
}

/// v1beta1 NodePools set the kubelet in their template; v1 sets it in the EC2NodeClass, one
/// class per kubelet configuration. As `kpg migrate` rewrites it, the first kubelet a class
/// receives becomes its own, and each different one goes to a copy named
/// `<class>-<nodepool>` that the NodePools with that kubelet then use. So a v1beta1 manifest
/// and its migration simulate alike. A class that sets its own kubelet keeps it.
fn give_kubelets_to_classes(
    scenario: &mut Scenario,
    kubelets: Vec<(String, String, kpg_core::model::KubeletConfig)>,
) {
    let mut taken: BTreeSet<String> = scenario
        .node_classes
        .iter()
        .map(|c| c.name.clone())
        .collect();
    // class -> the kubelets given so far and the class each went to
    let mut given: BTreeMap<String, Vec<(kpg_core::model::KubeletConfig, String)>> =
        BTreeMap::new();
    for (pool, class, kubelet) in kubelets {
        let Some(ci) = scenario.node_classes.iter().position(|c| c.name == class) else {
            continue;
        };
        let so_far = given.entry(class.clone()).or_default();
        let target = if let Some((_, to)) = so_far.iter().find(|(k, _)| *k == kubelet) {
            to.clone()
        } else if so_far.is_empty() {
            if scenario.node_classes[ci].kubelet != kpg_core::model::KubeletConfig::default() {
                continue;
            }
            scenario.node_classes[ci].kubelet = kubelet.clone();
            so_far.push((kubelet, class.clone()));
            class.clone()
        } else {
            let base = format!("{class}-{pool}");
            let name = (1..)
                .map(|n| {
                    if n == 1 {
                        base.clone()
                    } else {
                        format!("{base}-{n}")
                    }
                })
                .find(|c| !taken.contains(c))
                .unwrap_or(base);
            taken.insert(name.clone());
            let mut copy = scenario.node_classes[ci].clone();
            copy.name = name.clone();
            copy.kubelet = kubelet.clone();
            scenario.node_classes.insert(ci + 1, copy);
            so_far.push((kubelet, name.clone()));
            name
        };
        if let Some(np) = scenario.node_pools.iter_mut().find(|p| p.name == pool) {
            np.node_class_ref.name = target;
        }
    }
}

/// Same kind, namespace and name twice: the later one is an error and is left out. A second
/// Cluster of any name is one too.
fn duplicates(accepted: &mut [Accepted], diagnostics: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<(&'static str, String, String), (usize, Pos)> = HashMap::new();
    let mut cluster: Option<(usize, Pos, String)> = None;
    for a in accepted.iter_mut() {
        let c = &a.converted;
        if c.kind == "Cluster" {
            if let Some((doc, pos, name)) = &cluster {
                diagnostics.push(
                    diag(
                        Severity::Error,
                        Code::DuplicateObject,
                        a,
                        "metadata.name",
                        c.name_pos,
                        format!(
                            "a scenario has at most one Cluster; Cluster/{name} is already defined \
                             in document {} (line {})",
                            doc + 1,
                            pos.line
                        ),
                        Some("merge the two Cluster documents".into()),
                    )
                    .with_ko(
                        format!(
                            "시나리오에는 Cluster가 하나만 있을 수 있습니다. Cluster/{name}가 이미 \
                             {}번째 문서({}번째 줄)에 있습니다",
                            doc + 1,
                            pos.line
                        ),
                        Some("두 Cluster 문서를 하나로 합치세요".into()),
                    ),
                );
                a.dropped = true;
            } else {
                cluster = Some((a.doc, c.name_pos, c.name.clone()));
            }
            continue;
        }
        let key = (c.kind, c.namespace.clone(), c.name.clone());
        if let Some((doc, pos)) = seen.get(&key) {
            diagnostics.push(
                diag(
                    Severity::Error,
                    Code::DuplicateObject,
                    a,
                    "metadata.name",
                    c.name_pos,
                    format!(
                        "{} is already defined in document {} (line {})",
                        a.label,
                        doc + 1,
                        pos.line
                    ),
                    Some("rename one of them or delete the duplicate".into()),
                )
                .with_ko(
                    format!(
                        "{}가 이미 {}번째 문서({}번째 줄)에 있습니다",
                        a.label,
                        doc + 1,
                        pos.line
                    ),
                    Some("둘 중 하나의 이름을 바꾸거나 중복을 지우세요".into()),
                ),
            );
            a.dropped = true;
        } else {
            seen.insert(key, (a.doc, c.name_pos));
        }
    }
}

/// A Timeline step that applies a NodePool over an existing one is an update, and the CRD makes
/// `nodeClassRef.group` and `nodeClassRef.kind` immutable (`self.group == oldSelf.group`): the
/// API server refuses such a step, so it is an error and its Timeline is left out.
fn immutable_fields(accepted: &mut [Accepted], diagnostics: &mut Vec<Diagnostic>) {
    let mut current: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut steps: Vec<(kpg_core::model::Millis, usize, usize)> = Vec::new();
    for (i, a) in accepted.iter().enumerate().filter(|(_, a)| !a.dropped) {
        match &a.converted.object {
            Object::NodePool(np) => {
                current.insert(
                    np.name.clone(),
                    (
                        np.node_class_ref.group.clone(),
                        np.node_class_ref.kind.clone(),
                    ),
                );
            }
            Object::Timeline(s) => {
                steps.extend(s.iter().enumerate().map(|(j, st)| (st.step.at, i, j)))
            }
            _ => {}
        }
    }
    // The order the steps run in: by time, then as written.
    steps.sort();
    let mut bad = Vec::new();
    for (_, i, j) in steps {
        let Object::Timeline(s) = &accepted[i].converted.object else {
            continue;
        };
        let Some(st) = s.get(j) else { continue };
        let obj = match &st.step.action {
            TimelineAction::Delete { kind, name, .. } if kind == "NodePool" => {
                current.remove(name);
                continue;
            }
            TimelineAction::Apply(obj) => obj,
            _ => continue,
        };
        let AppliedObject::NodePool(np) = obj.as_ref() else {
            continue;
        };
        let new = (
            np.node_class_ref.group.clone(),
            np.node_class_ref.kind.clone(),
        );
        match current.get(&np.name) {
            Some(old) if *old != new => bad.push((i, j, np.name.clone(), old.clone(), new)),
            _ => {
                current.insert(np.name.clone(), new);
            }
        }
    }
    for (i, j, name, (og, ok), (ng, nk)) in bad {
        let a = &mut accepted[i];
        if let Object::Timeline(s) = &a.converted.object
            && let Some(st) = s.get(j)
        {
            let field = if og != ng { "group" } else { "kind" };
            let d = diag(
                Severity::Error,
                Code::ImmutableField,
                a,
                &format!("{}.apply.spec.template.spec.nodeClassRef.{field}", st.path),
                st.pos,
                format!(
                    "NodePool/{name} exists with nodeClassRef {ok} in group {og}; its group and \
                     kind cannot change (here: {nk} in group {ng})"
                ),
                Some(format!(
                    "keep `group: {og}` and `kind: {ok}`, or delete the NodePool in an earlier \
                     step and apply it anew"
                )),
            )
            .with_ko(
                format!(
                    "NodePool/{name}는 이미 group {og}의 {ok}를 nodeClassRef로 씁니다. group과 \
                     kind는 바꿀 수 없습니다(여기서는 group {ng}의 {nk})"
                ),
                Some(format!(
                    "`group: {og}`와 `kind: {ok}`를 그대로 두거나, 앞 단계에서 \
                     NodePool을 지우고 새로 적용하세요"
                )),
            );
            diagnostics.push(d);
        }
        a.dropped = true;
    }
}

/// Checks references between objects. Missing targets are warnings (the API server accepts
/// them; the object simply has no effect), except node groups naming an instance type that a
/// custom catalog lacks, which cannot be simulated.
fn references(accepted: &mut [Accepted], diagnostics: &mut Vec<Diagnostic>) {
    let mut known: BTreeSet<(String, String, String)> = BTreeSet::new();
    let mut namespaces: BTreeSet<String> =
        BUILTIN_NAMESPACES.iter().map(|s| s.to_string()).collect();
    let mut custom_types = BTreeSet::new();
    let mut region = kpg_core::model::Cluster::default().region;
    // EKS Auto Mode's built-in NodeClass exists without a document (`assemble::automode`
    // says when Auto Mode is off).
    known.insert((
        kpg_core::automode::KIND.to_string(),
        String::new(),
        kpg_core::automode::DEFAULT_CLASS.to_string(),
    ));
    for a in accepted.iter().filter(|a| !a.dropped) {
        let c = &a.converted;
        known.insert((c.kind.to_string(), c.namespace.clone(), c.name.clone()));
        match &c.object {
            Object::Cluster(cluster) => region = cluster.region.clone(),
            Object::Namespace(n) => {
                namespaces.insert(n.name.clone());
            }
            Object::InstanceType(t) => {
                custom_types.insert(t.name.clone());
            }
            Object::Timeline(steps) => {
                for s in steps {
                    if let TimelineAction::Apply(obj) = &s.step.action {
                        let (kind, ns, name) = match obj.as_ref() {
                            AppliedObject::NodePool(np) => {
                                ("NodePool", String::new(), np.name.clone())
                            }
                            AppliedObject::NodeClass(nc) => {
                                (nc.kind(), String::new(), nc.name.clone())
                            }
                            AppliedObject::Workload(w) => {
                                (w.kind.as_str(), w.namespace.clone(), w.name.clone())
                            }
                            AppliedObject::Pdb(p) => {
                                ("PodDisruptionBudget", p.namespace.clone(), p.name.clone())
                            }
                            AppliedObject::PriorityClass(c) => {
                                ("PriorityClass", String::new(), c.name.clone())
                            }
                            AppliedObject::CapacityBuffer(b) => {
                                ("CapacityBuffer", b.namespace.clone(), b.name.clone())
                            }
                        };
                        known.insert((kind.to_string(), ns, name));
                    }
                }
            }
            _ => {}
        }
    }
    for a in accepted.iter_mut().filter(|a| !a.dropped) {
        let mut drop = false;
        for r in &a.refs {
            // Admission's inputs (a pod's RuntimeClass and overhead, its priority and
            // preemption policy): `admission` and `priority::resolve` check them.
            if matches!(
                r.kind.as_str(),
                "RuntimeClass"
                    | POD_OVERHEAD
                    | "PriorityClass"
                    | crate::convert::pod::PRIORITY_REF
                    | crate::convert::pod::POLICY_REF
            ) {
                continue;
            }
            if matches!(
                r.kind.as_str(),
                "InstanceType" | "Region" | "Zone" | "ReservationZone"
            ) {
                if let Some((message, help)) = catalog_problem(r, &custom_types, &region) {
                    let ko = match r.kind.as_str() {
                        "InstanceType" => {
                            format!("인스턴스 유형 `{}`를 카탈로그에서 찾을 수 없습니다", r.name)
                        }
                        "Region" => format!("리전 `{}`는 내장 카탈로그에 없습니다", r.name),
                        "ReservationZone" => format!(
                            "{}는 {region}의 가용 영역 `{}`에서 제공되지 않습니다",
                            r.namespace, r.name
                        ),
                        _ => format!("가용 영역 `{}`를 카탈로그에서 찾을 수 없습니다", r.name),
                    };
                    diagnostics.push(
                        diag(
                            Severity::Error,
                            Code::UnknownReference,
                            a,
                            &r.path,
                            r.pos,
                            message,
                            Some(help),
                        )
                        .with_ko(ko, None),
                    );
                    drop = true;
                }
                continue;
            }
            // A pod's claims live in the pod's namespace, which its spec does not know.
            let namespace = if r.kind == "PersistentVolumeClaim" && r.namespace.is_empty() {
                a.converted.namespace.clone()
            } else {
                r.namespace.clone()
            };
            let r = &Ref {
                namespace,
                ..r.clone()
            };
            if !known.contains(&(r.kind.clone(), r.namespace.clone(), r.name.clone())) {
                let target = object_label(
                    &r.kind,
                    if r.namespace.is_empty() {
                        None
                    } else {
                        Some(&r.namespace)
                    },
                    Some(&r.name),
                );
                let consequence = match r.kind.as_str() {
                    "EC2NodeClass" | "NodeClass" => {
                        ": the NodePool will never launch nodes".to_string()
                    }
                    "PersistentVolumeClaim" => format!(
                        ": kube-scheduler leaves the pod pending (persistentvolumeclaim \"{}\" \
                         not found) and Karpenter ignores it",
                        r.name
                    ),
                    "StorageClass" => ": no volume is provisioned for the claim, so its pods \
                                       stay pending"
                        .to_string(),
                    _ => String::new(),
                };
                let code = match r.kind.as_str() {
                    "PersistentVolumeClaim" => Code::ClaimNotFound,
                    "StorageClass" => Code::StorageClassNotFound,
                    _ => Code::UnknownReference,
                };
                diagnostics.push(
                    diag(
                        Severity::Warning,
                        code,
                        a,
                        &r.path,
                        r.pos,
                        format!("{target} is not defined in this scenario{consequence}"),
                        Some(format!(
                            "define {target} in a document of its own, or refer to one that is \
                             defined (a document with errors is left out)"
                        )),
                    )
                    .with_ko(
                        format!(
                            "{target}가 이 시나리오에 없습니다{}",
                            match r.kind.as_str() {
                                "EC2NodeClass" => ". 이 NodePool은 노드를 띄우지 않습니다",
                                "PersistentVolumeClaim" => {
                                    ". kube-scheduler는 파드를 Pending으로 두고 Karpenter는 \
                                     무시합니다"
                                }
                                "StorageClass" => {
                                    ". 클레임에 볼륨이 만들어지지 않아 그 파드는 Pending으로 \
                                     남습니다"
                                }
                                _ => "",
                            }
                        ),
                        Some(format!(
                            "{target}를 별도 문서로 정의하거나 정의된 오브젝트를 가리키세요(오류가 \
                             있는 문서는 빠집니다)"
                        )),
                    ),
                );
            }
        }
        let c = &a.converted;
        if !c.namespace.is_empty() && !namespaces.contains(&c.namespace) {
            diagnostics.push(
                diag(
                    Severity::Warning,
                    Code::UnknownReference,
                    a,
                    "metadata.namespace",
                    c.name_pos,
                    format!(
                        "namespace `{}` is not defined in this scenario",
                        c.namespace
                    ),
                    Some(format!(
                        "add a Namespace document: `apiVersion: v1`, `kind: \
                         Namespace`, `metadata: {{name: {}}}`",
                        c.namespace
                    )),
                )
                .with_ko(
                    format!("네임스페이스 `{}`가 이 시나리오에 없습니다", c.namespace),
                    None,
                ),
            );
        }
        if drop {
            a.dropped = true;
        }
    }
}

/// What is wrong with a reference to an instance type, a region or a zone: custom
/// `InstanceType` documents replace the built-in catalog (and make zone names free); without
/// them the built-in catalog must know the name, or the simulation cannot start.
/// Whether the built-in catalog offers `instance_type` in `zone` of `region`.
fn offered_in(instance_type: &str, zone: &str, region: &str) -> bool {
    use kpg_core::catalog::aws;
    let (Some(entry), Some(index), Some(zones)) = (
        aws::lookup(instance_type),
        aws::region_index(region),
        aws::region_zones(region),
    ) else {
        return false;
    };
    zones.iter().any(|z| z == zone)
        && zone
            .bytes()
            .last()
            .is_some_and(|letter| entry.offered_in(index, letter))
}

/// What is wrong with a reference to the catalog, if anything. `region` is the scenario's,
/// for a reservation's zone (`ReservationZone`: the instance type in `namespace`).
fn catalog_problem(
    r: &Ref,
    custom_types: &BTreeSet<String>,
    region: &str,
) -> Option<(String, String)> {
    use kpg_core::catalog::aws;
    match r.kind.as_str() {
        "InstanceType" if !custom_types.is_empty() => {
            if custom_types.contains(&r.name) {
                return None;
            }
            let help = crate::reader::suggest(&r.name, custom_types.iter().map(String::as_str))
                .map(|g| format!("did you mean `{g}`?"))
                .unwrap_or_else(|| {
                    "with InstanceType documents the built-in catalog is not used: name one of them"
                        .into()
                });
            Some((
                format!(
                    "instance type `{}` is not defined by any InstanceType document",
                    r.name
                ),
                help,
            ))
        }
        "InstanceType" => {
            if aws::lookup(&r.name).is_some() {
                return None;
            }
            let help = crate::reader::suggest(&r.name, aws::entries().iter().map(|e| e.name))
                .map(|g| format!("did you mean `{g}`?"))
                .unwrap_or_else(|| {
                    "use an EC2 instance type such as m5.large, or define it \
                     with an InstanceType document"
                        .into()
                });
            Some((
                format!(
                    "`{}` is not an instance type of the built-in catalog",
                    r.name
                ),
                help,
            ))
        }
        _ if !custom_types.is_empty() => None,
        // A reservation's zone must offer its instance type (an unknown type is reported
        // by its own reference); a scenario's own instance types are not checked.
        "ReservationZone" => {
            if aws::lookup(&r.namespace).is_none() || offered_in(&r.namespace, &r.name, region) {
                return None;
            }
            Some((
                format!(
                    "{} is not offered in zone `{}` of {region}",
                    r.namespace, r.name
                ),
                "a reservation is for an instance type in a zone that offers it: pick one of \
                 the region's zones that does"
                    .into(),
            ))
        }
        "Region" => {
            if aws::region_index(&r.name).is_some() {
                return None;
            }
            Some((
                format!("region `{}` is not in the built-in catalog", r.name),
                format!("use one of {}", aws::REGIONS.join(", ")),
            ))
        }
        _ => {
            // `namespace` carries the region the zone belongs to.
            let zones = aws::region_zones(&r.namespace)?;
            if zones.contains(&r.name) {
                return None;
            }
            Some((
                format!("zone `{}` is not a zone of {}", r.name, r.namespace),
                format!("use {}", zones.join(", ")),
            ))
        }
    }
}

fn replicas_of(kind: WorkloadKind, replicas: u32) -> i64 {
    match kind {
        WorkloadKind::Pod => 1,
        // One pod per node: bounded by the node cap, not counted here.
        WorkloadKind::DaemonSet => 0,
        _ => i64::from(replicas),
    }
}

/// Caps the pods a scenario implies: initially, and at every step of its timelines.
fn pod_cap(accepted: &mut [Accepted], diagnostics: &mut Vec<Diagnostic>) {
    let help = || {
        Some(format!(
            "the playground simulates at most {MAX_PODS} pods; lower `replicas` (a few replicas \
             show the same behaviour)"
        ))
    };
    let help_ko = || {
        format!(
            "플레이그라운드는 파드를 최대 {MAX_PODS}개까지 시뮬레이션합니다. `replicas`를 \
             줄이세요(레플리카 몇 개로도 같은 동작을 볼 수 있습니다)"
        )
    };
    let mut current: BTreeMap<(WorkloadKind, String, String), i64> = BTreeMap::new();
    let mut total: i64 = 0;
    for a in accepted.iter_mut().filter(|a| !a.dropped) {
        let Object::Workload(w) = &a.converted.object else {
            continue;
        };
        let n = replicas_of(w.kind, w.replicas);
        if total + n > MAX_PODS {
            let message = format!("{} brings the scenario to {} pods", a.label, total + n);
            let ko = format!("{}로 시나리오의 파드가 {}개가 됩니다", a.label, total + n);
            // At the count that makes the pods (a bare Pod has none: its name).
            let (pos, path) = a
                .converted
                .count_at
                .unwrap_or((a.converted.name_pos, "metadata.name"));
            diagnostics.push(
                diag(
                    Severity::Error,
                    Code::TooLarge,
                    a,
                    path,
                    pos,
                    message,
                    help(),
                )
                .with_ko(ko, Some(help_ko())),
            );
            a.dropped = true;
            continue;
        }
        total += n;
        current.insert((w.kind, w.namespace.clone(), w.name.clone()), n);
    }
    // Every step of every timeline, in time order, with the index of its document.
    let mut steps: Vec<(u64, usize, usize)> = Vec::new();
    for (i, a) in accepted.iter().enumerate().filter(|(_, a)| !a.dropped) {
        if let Object::Timeline(s) = &a.converted.object {
            steps.extend(s.iter().enumerate().map(|(j, st)| (st.step.at, i, j)));
        }
    }
    steps.sort();
    let mut bad: Vec<(usize, usize)> = Vec::new();
    for (_, i, j) in steps {
        if bad.iter().any(|(bi, _)| *bi == i) {
            continue;
        }
        let Object::Timeline(s) = &accepted[i].converted.object else {
            continue;
        };
        let Some((kind, name, ns, replicas)) =
            s.get(j).and_then(|st| playground::step_replicas(&st.step))
        else {
            continue;
        };
        let n = replicas_of(kind, replicas);
        let key = (kind, ns.to_string(), name.to_string());
        let old = current.get(&key).copied().unwrap_or(0);
        let next = total - old + n;
        if next > MAX_PODS {
            bad.push((i, j));
            continue;
        }
        total = next;
        current.insert(key, n);
    }
    for (i, j) in bad {
        let a = &mut accepted[i];
        if let Object::Timeline(s) = &a.converted.object
            && let Some(st) = s.get(j)
        {
            let d = diag(
                Severity::Error,
                Code::TooLarge,
                a,
                &st.path,
                st.pos,
                "this step brings the scenario above the pod limit".into(),
                help(),
            )
            .with_ko(
                "이 단계로 시나리오의 파드가 한도를 넘습니다".into(),
                Some(help_ko()),
            );
            diagnostics.push(d);
        }
        a.dropped = true;
    }
}
