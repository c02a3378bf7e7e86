//! The live region that tells Karpenter's decisions to a screen reader: the worker's
//! narrator ([`crate::bridge::narration`]) sends what happened with each frame; this view
//! batches it and says it.

/// The live region: polite (it waits for the screen reader to finish what it is saying),
/// atomic (each announcement is read whole), and hidden from sight: the cluster shows the
/// same. Outside the panes, so a phone's view switch (which hides panes) never hides it.
#[leptos::component]
pub fn Narration() -> impl leptos::IntoView {
    use leptos::prelude::*;

    use crate::bridge::narration::{Batcher, Heard, Moved, clock_at, heard, words};
    use crate::state::{Engine, Locale, Transport};

    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let transport = use_context::<Transport>();
    // What was said last, and how many announcements so far (a test reads the count).
    let said = RwSignal::new((0u64, String::new()));
    let batcher = StoredValue::new(Batcher::default());
    let say = move |text: String| {
        if !text.is_empty() {
            said.update(|(n, t)| {
                *n += 1;
                *t = text;
            });
        }
    };
    let flush = move || {
        let now = crate::base::browser::now_ms();
        if let Some(told) = batcher.try_update_value(|b| b.take(now)).flatten() {
            say(words(&told, locale.lang.get_untracked()));
        }
    };
    let schedule = move |due: f64| {
        let wait = (due - crate::base::browser::now_ms()).max(0.0);
        set_timeout(flush, std::time::Duration::from_millis(wait as u64));
    };
    engine.on_narration(move |from, to, expected_next, narration| {
        let moved = Moved {
            from,
            to,
            expected_next,
            playing: transport.is_some_and(|t| t.playing.get_untracked()),
        };
        let now = crate::base::browser::now_ms();
        match heard(&moved, &narration) {
            Heard::Decisions => {
                if let Some(due) = batcher
                    .try_update_value(|b| b.push(now, narration.told))
                    .flatten()
                {
                    schedule(due);
                }
            }
            Heard::Jump => {
                batcher.update_value(|b| b.jump(now));
                let lang = locale.lang.get_untracked();
                say(engine
                    .snapshot
                    .with_untracked(|s| clock_at(to, &s.summary, lang)));
            }
            Heard::Quiet => {}
        }
    });
    view! {
        <div class="narration visually-hidden" role="status" aria-live="polite"
            aria-atomic="true" data-said=move || said.with(|(n, _)| n.to_string())>
            {move || said.with(|(_, t)| t.clone())}
        </div>
    }
}
