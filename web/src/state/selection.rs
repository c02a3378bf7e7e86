use leptos::prelude::*;

use kpg_explain::Explanation;

use crate::bridge::protocol::{Reply, Request, Selected};
use kpg_share::View;

use crate::state::focus::{self, Focus};
use crate::state::{Engine, Locale, Transport};

/// The tabs under the cluster view: the share link's own type, so a link carries it as is.
pub use kpg_share::BottomTab;

/// The page's panes as a phone shows them, one at a time. A phone opens on the lesson, with
/// the cluster one tap away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhoneView {
    Lesson,
    Cluster,
    Manifests,
    /// The tabs under the cluster: events, explanations, the terminal.
    Inspect,
}

impl PhoneView {
    pub const ALL: [PhoneView; 4] = [
        PhoneView::Lesson,
        PhoneView::Cluster,
        PhoneView::Manifests,
        PhoneView::Inspect,
    ];

    /// The value of `data-view` on the panes, which the phone's style sheet reads.
    pub fn code(self) -> &'static str {
        match self {
            PhoneView::Lesson => "lesson",
            PhoneView::Cluster => "cluster",
            PhoneView::Manifests => "manifests",
            PhoneView::Inspect => "inspect",
        }
    }
}

/// How a new selection's answer is brought into sight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reveal {
    /// The answer's sentence, scrolled the least that shows it.
    Answer,
    /// The whole explanation, raised from the lower half of the window.
    Explanation,
}

/// Where the selection is made: the full page, or an embed in an article (which may offer
/// the Explain part).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    Page,
    Embed { explains: bool },
}

/// What the learner is looking at: the selected pod or node, the tab under the cluster (an
/// embed's part), and, derived from those and the engine, the explanation and what it lights
/// up in the cluster view.
#[derive(Clone, Copy)]
pub struct Selection {
    pub selected: RwSignal<Option<Selected>>,
    pub bottom: RwSignal<BottomTab>,
    /// The part an embed shows (one at a time when narrow).
    pub embed_view: RwSignal<View>,
    /// The view a phone shows (the page's panes, one at a time); a wide screen shows them
    /// all and ignores it.
    pub phone_view: RwSignal<PhoneView>,
    /// The page or an embed: an embed that offers the Explain part shows it on a
    /// selection, and only the page scrolls an answer into sight.
    host: Host,
    /// The selection explained at the current instant (`Err`: it no longer exists).
    pub explanation: RwSignal<Option<Result<Explanation, String>>>,
    /// What the cluster view lights up and dims for the selected pod.
    pub focus: Memo<Focus>,
    /// The learner just chose a subject: its first answer is brought into sight (the panel
    /// under a tall cluster can start below the fold), as [`Selection::select`] decided.
    /// Later answers, as the clock moves, leave the scroll where the learner put it.
    reveal: StoredValue<Option<Reveal>>,
}

impl Selection {
    pub fn new(
        selected: Option<Selected>,
        bottom: BottomTab,
        embed_view: View,
        host: Host,
        engine: Engine,
        clock: Signal<i64>,
        locale: Locale,
    ) -> Selection {
        let selected = RwSignal::new(selected);
        let explanation = RwSignal::new(None);
        let reveal = StoredValue::new(None);
        // Derived, not synced: the explanation follows the selection, the language and the
        // engine; a node's also follows the clock, second by second, for its countdowns. The
        // worker explains; the answer replaces the last one when it comes (and one for a
        // selection since changed is dropped).
        let clock_second = Memo::new(move |_| clock.get() / 1000);
        Effect::new(move |_| {
            let Some(sel) = selected.get() else {
                explanation.set(None);
                return;
            };
            engine.track();
            if matches!(sel, Selected::Node { .. }) {
                // `get`, not `track`: a memo nobody has read yet must run to follow the clock.
                let _ = clock_second.get();
            }
            let lang = locale.lang.get();
            let sel = engine.snapshot.with_untracked(|s| sel.resolved(s));
            engine.explain(
                Request::Explain {
                    selected: sel,
                    lang,
                },
                move |reply| {
                    if let Reply::Explained {
                        selected: answered,
                        explanation: e,
                    } = reply
                        && selected.with_untracked(|s| {
                            s.as_ref().is_some_and(|s| s.same_subject(&answered))
                        })
                    {
                        let answered = matches!(e, Some(Ok(_)));
                        explanation.set(e);
                        if let Some(how) = reveal.get_value().filter(|_| answered) {
                            reveal.set_value(None);
                            // After the answer is drawn (effects run before the next frame).
                            request_animation_frame(move || match how {
                                Reveal::Answer => {
                                    crate::base::browser::reveal_selector(".explanation .answer")
                                }
                                Reveal::Explanation => {
                                    crate::base::browser::raise_selector(".explanation")
                                }
                            });
                        }
                    }
                },
            );
        });
        let focus = Memo::new(move |_| {
            explanation.with(|e| match e {
                Some(Ok(e)) => focus::focus(e),
                _ => Focus::default(),
            })
        });
        Selection {
            selected,
            bottom: RwSignal::new(bottom),
            embed_view: RwSignal::new(embed_view),
            phone_view: RwSignal::new(PhoneView::Lesson),
            host,
            explanation,
            focus,
            reveal,
        }
    }

    /// Explains a pod or a node: selects it and opens the Explain tab.
    pub fn select(&self, s: Selected) {
        // A pod's answer is drawn on the cluster too (each node and NodePool lit or dimmed
        // with its reason), so its sentence comes into sight with the least scroll; a
        // node's is in its tables (the candidates, the disruption status), which rise to
        // the upper part of the window. An embed never scrolls its article.
        let how = match s {
            Selected::Pod(_) => Reveal::Answer,
            Selected::Node { .. } => Reveal::Explanation,
        };
        self.reveal
            .set_value((self.host == Host::Page).then_some(how));
        self.selected.set(Some(s));
        self.bottom.set(BottomTab::Explain);
        self.phone_view.set(PhoneView::Inspect);
        if self.host == (Host::Embed { explains: true }) {
            self.embed_view.set(View::Explain);
        }
    }

    /// Explains what an event is about as of the event's instant: the clock moves there
    /// (a replay, if it is behind), and once the cluster on screen is that instant's, the
    /// pod, node or NodeClaim is selected and the Explain tab opens. So a step that played
    /// past in a second can still be studied. False for events about other objects.
    pub fn explain_event(
        &self,
        object: &str,
        at: i64,
        transport: Transport,
        engine: Engine,
    ) -> bool {
        let Some(target) = Selected::of_event_object(object) else {
            return false;
        };
        transport.seek(at);
        let selection = *self;
        engine.when_settled(move || {
            let target = engine.snapshot.with_untracked(|s| target.resolved(s));
            selection.select(target);
        });
        true
    }

    /// Selects a node by name (its NodeClaim, if it has one, from the cluster on screen).
    pub fn select_node(&self, name: &str, engine: Engine) {
        let node = Selected::Node {
            name: name.to_string(),
            nodeclaim: None,
        };
        self.select(engine.snapshot.with_untracked(|s| node.resolved(s)));
    }
}
