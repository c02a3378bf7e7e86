//! What the lesson reader worker does, as a pure function of text: a request names a lesson
//! file and gives its text (and its translations', and the lab files it has been given); the
//! answer is the lesson prepared for the page ([`kpg_lesson::prepared::Bundle`]), the lab
//! files it still needs (the page fetches them and asks again), or the problems that keep it
//! from reading, each located (`FILE:LINE:COL: error[code]: …`).
//!
//! Nothing in a lesson is executed: its Markdown becomes a tree of text and a few elements
//! (`kpg_lesson::rich_text`), and its labs are scenarios the page reads as any other.

pub use kpg_lesson::prepared::{ReadReply as Reply, ReadRequest as Request, answer};

/// Answers a request given as JSON, as JSON.
pub fn answer_json(request: &str) -> String {
    let reply = match serde_json::from_str::<Request>(request) {
        Ok(request) => answer(&request),
        Err(e) => Reply::Problems(vec![format!(
            "the page sent a request that does not read: {e}"
        )]),
    };
    serde_json::to_string(&reply).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LESSON: &str = "id: mine\ntitle: Mine\nlab: labs/pod.yaml\nsteps:\n  - id: one\n    \
                          title: One\n    text: \"Hi <script>alert(1)</script> \
                          [x](javascript:y)\"\n";
    const POD: &str = "# a header\napiVersion: v1\nkind: Pod\nmetadata: {name: a}\n";

    #[test]
    fn a_lesson_with_a_lab_file_asks_for_it_then_is_prepared() {
        let mut request = Request {
            file: "/blog/l/lesson.yaml".into(),
            text: LESSON.into(),
            ..Request::default()
        };
        assert_eq!(
            answer(&request),
            Reply::Needs(vec!["/blog/l/labs/pod.yaml".into()])
        );
        request
            .files
            .insert("/blog/l/labs/pod.yaml".into(), Some(POD.into()));
        let Reply::Prepared(bundle) = answer(&request) else {
            panic!("{:?}", answer(&request));
        };
        let lesson = &bundle.lessons[0].english;
        assert_eq!(lesson.id, "mine");
        assert_eq!(
            bundle.scenario(lesson.steps[0].scenario.as_deref().unwrap()),
            Some("apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n")
        );
        // Its text is text: the script and the link are what they say, not markup.
        let text = kpg_lesson::rich_text::plain(&lesson.steps[0].text);
        assert_eq!(text, "Hi <script>alert(1)</script> x");
    }

    #[test]
    fn a_lesson_that_does_not_read_answers_located_problems() {
        let request = Request {
            file: "lesson.yaml".into(),
            text: "id: Mine!\ntitle: [\n".into(),
            ..Request::default()
        };
        let Reply::Problems(problems) = answer(&request) else {
            panic!("problems expected");
        };
        assert!(problems[0].starts_with("lesson.yaml:"), "{problems:?}");
        let garbage = answer_json("{not json");
        assert!(garbage.contains("problems"), "{garbage}");
    }
}
