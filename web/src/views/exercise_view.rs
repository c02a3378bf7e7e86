//! A lesson step's exercise on the page: the task, its goals ticked off as the cluster meets
//! them, a hint once the learner has tried for a while, and the solution on request.

use leptos::prelude::*;

use crate::base::i18n::T;
use crate::editor::workspace::Workspace;
use crate::lessons::markdown::{render, render_inline};
use crate::lessons::{Judged, PreparedExercise};
use crate::state::{Editor, Engine, Locale, Notice, Page, Transport};

/// How long the learner works on a task before the hint is offered.
const HINT_AFTER_MS: u64 = 45_000;

#[component]
pub fn ExerciseCard(
    /// The exercise's goals and edits (the same in every language).
    exercise: &'static PreparedExercise,
    /// The same exercise in the reader's language: its task, hint, solution and goals.
    #[prop(into)]
    worded: Signal<&'static PreparedExercise>,
    /// The step's scenario, which the solution's edits change.
    scenario: String,
) -> impl IntoView {
    let locale = expect_context::<Locale>();
    let engine = expect_context::<Engine>();
    let editor = expect_context::<Editor>();
    let transport = expect_context::<Transport>();
    let page = expect_context::<Page>();
    let at_rest = Memo::new(move |_| engine.next_event.get().is_none());
    let goals = Memo::new(move |_| {
        engine
            .snapshot
            .with(|s| exercise.goals.iter().map(|g| g.met(s)).collect::<Vec<_>>())
    });
    // A task judged at any instant stays solved once seen solved, until the manifests change.
    let seen = RwSignal::new(false);
    Effect::new(move |_| {
        editor.ws.track();
        seen.set(false);
    });
    let met_now = move || {
        let all = goals.with(|g| g.iter().all(|m| *m));
        all && exercise.judged.counts(at_rest.get())
    };
    Effect::new(move |_| {
        if met_now() && exercise.judged == Judged::AnyInstant {
            seen.set(true);
        }
    });
    let solved = move || met_now() || seen.get();
    let hint_ready = RwSignal::new(false);
    let hint_open = RwSignal::new(false);
    let solution_open = RwSignal::new(false);
    let timer = set_timeout_with_handle(
        move || hint_ready.set(true),
        std::time::Duration::from_millis(HINT_AFTER_MS),
    )
    .ok();
    on_cleanup(move || {
        if let Some(t) = timer {
            t.clear();
        }
    });
    let scenario = StoredValue::new(scenario);
    let apply = move |_| {
        let solved = scenario.with_value(|s| kpg_lesson::exercise::apply(s, &exercise.edits));
        let Ok(text) = solved else {
            page.tell(T::StepChangeSkipped);
            return;
        };
        let before = (editor.ws.get_untracked(), editor.active_doc.get_untracked());
        transport.cue(0);
        editor.replace(Workspace::from_stream(&text));
        page.notice.set(Some(Notice {
            undo: Some(before),
            ..Notice::plain(T::SolutionApplied)
        }));
    };
    view! {
        <section class="exercise" class:solved=solved aria-live="polite"
            data-solved=move || solved().to_string()>
            <h3>
                <span class="badge">{move || locale.t(T::Exercise)}</span>
                {move || render_inline(&worded.get().task)}
            </h3>
            <ul class="goals">
                {move || {
                    let texts = &worded.get().goal_texts;
                    goals.get().into_iter().zip(texts).map(|(met, g)| view! {
                        <li class:met=met>
                            <span aria-hidden="true">{if met { "✓" } else { "○" }}</span>" "
                            {render_inline(g)}
                        </li>
                    }).collect_view()
                }}
            </ul>
            <p class="status">{move || {
                if solved() {
                    locale.t(T::ExerciseSolved)
                } else if goals.with(|g| g.iter().all(|m| *m)) {
                    locale.t(T::ExerciseWaitRest)
                } else {
                    locale.t(T::ExerciseOpen)
                }
            }}</p>
            <div class="exercise-actions">
                <Show when=move || !solved() && (hint_ready.get() || hint_open.get())>
                    <button class="ghost hint" aria-expanded=move || hint_open.get().to_string()
                        on:click=move |_| hint_open.update(|o| *o = !*o)>
                        {move || locale.t(T::Hint)}
                    </button>
                </Show>
                <button class="ghost show-solution"
                    aria-expanded=move || solution_open.get().to_string()
                    on:click=move |_| solution_open.update(|o| *o = !*o)>
                    {move || locale.t(T::ShowSolution)}
                </button>
            </div>
            <Show when=move || hint_open.get() && !solved()>
                <div class="hint-text">{move || render(&worded.get().hint, None)}</div>
            </Show>
            <Show when=move || solution_open.get()>
                <div class="solution">
                    <div class="solution-text">{move || render(&worded.get().solution, None)}</div>
                    <button class="secondary apply-solution" on:click=apply>
                        {move || locale.t(T::ApplySolution)}
                    </button>
                </div>
            </Show>
        </section>
    }
}
