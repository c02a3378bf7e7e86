use super::*;

/// Every lesson folder in `lessons/`, by id.
fn lesson_folders() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons");
    let mut ids: Vec<String> = std::fs::read_dir(&root)
        .expect("the lessons folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.join("lesson.yaml").is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    ids
}

#[test]
fn the_page_ships_every_lesson_folder_in_both_languages() {
    let mut shipped: Vec<String> = all(Lang::En).iter().map(|l| l.id.clone()).collect();
    shipped.sort();
    assert_eq!(
        shipped,
        lesson_folders(),
        "web/build.rs's LESSONS lists every folder"
    );
    for lesson in all(Lang::Ko) {
        assert_eq!(
            lesson.untranslated, 0,
            "{}: a text falls back to English",
            lesson.id
        );
        assert!(
            kpg_lesson::rich_text::plain(&lesson.steps[0].text)
                .chars()
                .any(|c| ('가'..='힣').contains(&c)),
            "{}: Korean",
            lesson.id
        );
    }
    assert_eq!(first(Lang::Ko).id, FIRST);
    assert_eq!(all(Lang::En).last().map(|l| l.id.as_str()), Some(BLANK));
}

#[test]
fn every_steps_scenario_is_shipped_and_reads_cleanly() {
    for lesson in all(Lang::En) {
        for (i, step) in lesson.steps.iter().enumerate() {
            let text = step_scenario(lesson, i)
                .unwrap_or_else(|| panic!("{} step {}: {}", lesson.id, step.id, step.lab));
            assert!(
                text.starts_with("apiVersion"),
                "{}: the lab starts at its first document",
                step.lab
            );
            let loaded = kpg_manifests::load(text);
            let errors: Vec<String> = loaded.errors().map(|d| d.to_string()).collect();
            assert!(errors.is_empty(), "{}: {errors:#?}", step.lab);
            if let Some(compare) = &step.compare {
                assert!(scenario(compare).is_some(), "{}", step.id);
            }
        }
    }
}

#[test]
fn a_lesson_reads_in_korean_with_english_ids_and_labs() {
    let en = find("labels-taints", Lang::En).expect("the lesson");
    let ko = find("labels-taints", Lang::Ko).expect("the lesson");
    assert_ne!(en.title, ko.title);
    assert_eq!(
        en.steps
            .iter()
            .map(|s| (&s.id, &s.lab, &s.scenario))
            .collect::<Vec<_>>(),
        ko.steps
            .iter()
            .map(|s| (&s.id, &s.lab, &s.scenario))
            .collect::<Vec<_>>()
    );
    assert_ne!(en.steps[0].lab_name, ko.steps[3].lab_name);
}

#[test]
fn the_next_lesson_follows_the_pages_order_and_blank_is_never_next() {
    assert_eq!(
        after(FIRST, Lang::En).map(|l| l.id.as_str()),
        Some("labels-taints")
    );
    let lessons = all(Lang::En);
    let last_before_blank = &lessons[lessons.len() - 2].id;
    assert_eq!(after(last_before_blank, Lang::En), None);
    assert_eq!(after(BLANK, Lang::En), None);
}

/// A session saved before lessons were files names labs by the page's old `Lab` enum; each
/// name still opens the same file, which a lesson opens.
#[test]
fn old_lab_names_migrate_to_the_same_files() {
    assert_eq!(
        migrate_lab_key("HelloWorld"),
        "tests/labs/seed000-hello-world.yaml"
    );
    assert_eq!(migrate_lab_key("Blank"), "web/src/templates/blank.yaml");
    assert_eq!(
        migrate_lab_key("tests/labs/seed002-limits.yaml"),
        "tests/labs/seed002-limits.yaml"
    );
    for (old, path) in OLD_LAB_NAMES {
        assert!(scenario(path).is_some(), "{old}: {path} is shipped");
    }
}

/// A lesson from elsewhere, prepared as the worker prepares one, joins the page's own.
#[test]
fn a_registered_lesson_opens_with_its_inline_lab_and_changes() {
    let text = "id: mine\ntitle: Mine\nlab:\n  inline: |\n    apiVersion: v1\n    kind: Pod\n    \
                metadata: {name: a}\n    spec:\n      containers: [{name: c, image: nginx}]\n\
                steps:\n  - id: one\n    title: One\n    text: Look.\n  - id: two\n    \
                title: Two\n    text: Changed.\n    change:\n      - {find: \"name: a\", \
                replace: \"name: b\"}\n  - id: three\n    title: Three\n    text: Still.\n";
    let lesson = kpg_lesson::read("mine/lesson.yaml", text).expect("it reads");
    let mut bundle = Bundle::default();
    kpg_lesson::prepared::prepare(&mut bundle, &lesson, &[], &|_| None, None);
    let files = kpg_share::LessonFiles {
        file: "mine/lesson.yaml".into(),
        text: text.into(),
        ..Default::default()
    };
    assert_eq!(
        register(FromElsewhere {
            files: files.clone(),
            reply: serde_json::to_string(&kpg_lesson::prepared::ReadReply::Prepared(bundle))
                .unwrap(),
        }),
        Some("mine".into())
    );
    assert_eq!(from_elsewhere("mine").map(|l| l.files), Some(files));
    let mine = find("mine", Lang::Ko).expect("registered, in English for every language");
    let (one, two, three) = (&mine.steps[0], &mine.steps[1], &mine.steps[2]);
    assert!(one.lab.starts_with("inline:"));
    assert_eq!((&one.lab, &one.lab), (&two.lab, &three.lab));
    assert!(step_scenario(mine, 0).unwrap().contains("name: a"));
    assert!(step_scenario(mine, 1).unwrap().contains("name: b"));
    assert!(
        step_scenario(mine, 2).unwrap().contains("name: b"),
        "changes carry on"
    );
    assert_eq!(
        one.lab_name, "Mine",
        "an unnamed lesson lab takes the lesson's title"
    );
    assert_eq!(two.change.len(), 1);
    assert!(find(FIRST, Lang::En).is_some(), "the page's own stay");
}

/// A lesson from elsewhere that takes the id of one of the page's own does not replace it:
/// a link cannot rewrite the page's first lesson.
#[test]
fn a_lesson_from_elsewhere_cannot_take_a_shipped_lessons_place() {
    let text = "id: hello\ntitle: Not hello\nlab:\n  inline: |\n    apiVersion: v1\n    \
                kind: Pod\n    metadata: {name: a}\n    spec:\n      containers: [{name: c, \
                image: nginx}]\nsteps:\n  - id: one\n    title: One\n    text: Look.\n";
    let lesson = kpg_lesson::read("hello/lesson.yaml", text).expect("it reads");
    let mut bundle = Bundle::default();
    kpg_lesson::prepared::prepare(&mut bundle, &lesson, &[], &|_| None, None);
    let files = kpg_share::LessonFiles {
        file: "hello/lesson.yaml".into(),
        text: text.into(),
        ..Default::default()
    };
    assert_eq!(
        register(FromElsewhere {
            files,
            reply: serde_json::to_string(&kpg_lesson::prepared::ReadReply::Prepared(bundle))
                .unwrap(),
        }),
        None
    );
    assert_ne!(find(FIRST, Lang::En).unwrap().title, "Not hello");
    assert!(from_elsewhere(FIRST).is_none());
}

/// The v1beta1 lesson says v1 requires `consolidateAfter` only in a written `disruption`
/// block and defaults an omitted one; the reader agrees on the lesson's own lab.
#[test]
fn the_v1beta1_lesson_states_the_consolidate_after_rule_the_reader_applies() {
    let text_of = |lang| {
        let step = &find("v1beta1-to-v1", lang).expect("the lesson").steps[0];
        kpg_lesson::rich_text::plain(&step.text)
    };
    let (en, ko) = (text_of(Lang::En), text_of(Lang::Ko));
    assert!(
        en.contains("requires it in any disruption block you write")
            && en.contains("consolidateAfter: 0s"),
        "{en}"
    );
    assert!(
        ko.contains("직접 쓴 disruption 블록 안에서는 필수") && ko.contains("consolidateAfter: 0s"),
        "{ko}"
    );
    let text = lab("seed000-v1beta1");
    let codes = |t: &str| {
        kpg_manifests::load(t)
            .diagnostics
            .iter()
            .map(|d| d.code.as_str())
            .collect::<Vec<_>>()
    };
    let written = text.replace("    consolidateAfter: 30s\n", "");
    assert_ne!(written, text);
    assert!(
        codes(&written).contains(&"v1beta1-consolidate-after"),
        "a written block without it"
    );
    let omitted = text.replace(
        "  disruption:\n    consolidationPolicy: WhenUnderutilized\
         \n    consolidateAfter: 30s\n",
        "",
    );
    assert_ne!(omitted, text);
    assert!(
        !codes(&omitted).contains(&"v1beta1-consolidate-after"),
        "no block: v1 defaults it"
    );
    let v1 = kpg_manifests::migrate(&omitted).text;
    let loaded = kpg_manifests::load(&v1);
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    assert!(
        loaded
            .scenario
            .node_pools
            .iter()
            .all(|np| np.consolidate_after == Some(0))
    );
}

/// The Auto Mode lesson's figures are the engine's: the migration puts `checkout` on an
/// Auto Mode node and `catalog` on Karpenter's, and B − A is exactly the fee.
#[test]
fn the_auto_mode_lesson_says_what_the_engine_does() {
    let run = |stem: &str| {
        let loaded = kpg_manifests::load(lab(stem));
        let mut sim = kpg_core::sim::Simulation::new(loaded.scenario).expect("it runs");
        sim.run_until(120_000);
        sim.report()
    };
    let (a, b) = (run("automode-before"), run("automode-migrate"));
    assert_eq!(a.management_fee_per_hour, 0.0);
    assert!((b.management_fee_per_hour - 0.01632).abs() < 1e-9, "{b:?}");
    assert!((b.cost_per_hour - a.cost_per_hour - b.management_fee_per_hour).abs() < 1e-9);
    let pool_of = |app: &str| -> Vec<Option<String>> {
        b.pods
            .iter()
            .filter(|p| p.labels.get("app").map(String::as_str) == Some(app))
            .map(|p| {
                let node = p.node.as_deref();
                b.nodes
                    .iter()
                    .find(|n| Some(n.name.as_str()) == node)
                    .and_then(|n| n.nodepool.clone())
            })
            .collect()
    };
    assert!(
        pool_of("checkout")
            .iter()
            .all(|p| p.as_deref() == Some("eks-auto-mode"))
    );
    assert!(
        pool_of("catalog")
            .iter()
            .all(|p| p.as_deref() == Some("default"))
    );
    for lang in [Lang::En, Lang::Ko] {
        let body = kpg_lesson::rich_text::plain(&find("auto-mode", lang).unwrap().steps[1].text);
        assert!(body.contains("$11.91"), "{body}");
    }
}
