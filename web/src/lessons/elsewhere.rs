//! A lesson from elsewhere (an article's, sent by the embed's host, or one a share link
//! carries): read by the lesson reader worker (`web/lesson-reader`, started only then), which
//! holds the YAML and Markdown parsers the page does without. Before it, the page may look for
//! the lesson's translations beside it; the reader may then ask for its lab files. The
//! caller's `fetch` gets both (an embed asks its host, which reads them beside the lesson; a
//! link has them already). A lesson that reads joins the page's own ([`super::register`]),
//! with the files it was read from; one that does not is answered with its located problems,
//! as text.

// The prerender (native, not a test) reads no lesson from elsewhere: the exchange is unused.
#![cfg_attr(all(not(target_arch = "wasm32"), not(test)), allow(dead_code))]

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use kpg_lesson::prepared::{ReadReply, ReadRequest};
use kpg_share::LessonFiles;

use super::FromElsewhere;
use crate::base::i18n::Lang;

/// The reader's script beside the page (trunk's loader for `kpg-lessons`).
#[cfg(target_arch = "wasm32")]
const READER_URL: &str = "./kpg-lessons_loader.js";

/// How many rounds of "these lab files, please" a lesson may ask for: one is all a lesson
/// needs (the reader lists every lab at once); the bound keeps a confused exchange finite.
const MAX_ROUNDS: usize = 3;

/// Lab files by path; `None`: not there.
pub type Files = BTreeMap<String, Option<String>>;

/// Gets the lab files a lesson names (resolved paths), then calls back with them.
pub type Fetch = Rc<dyn Fn(Vec<String>, Box<dyn FnOnce(Files)>)>;

/// What became of a lesson: its id, now in the page's lessons, or why it does not read.
pub type Done = Box<dyn FnOnce(Result<String, Vec<String>>)>;

/// Where a lesson's translations are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Translations {
    /// In the request already (a link's), or none.
    Given,
    /// Beside the lesson file, in these languages (`ko`: `lesson.ko.yaml` beside
    /// `lesson.yaml`), to be fetched; the page reads those it has words for. The host names
    /// them: a browser cannot list a site's files, and asking for one that is not there
    /// would put a failed request in the article's console.
    Beside(Vec<String>),
}

/// Reads `request`'s lesson in the reader worker; `done` is called once.
pub fn read(request: ReadRequest, translations: Translations, fetch: Fetch, done: Done) {
    let file = request.file.clone();
    let exchange = Rc::new(Exchange {
        request: RefCell::new(request),
        fetch,
        done: RefCell::new(Some(done)),
        rounds: RefCell::new(0),
        reader: RefCell::new(None),
    });
    let wanted: BTreeMap<String, &'static str> = match &translations {
        Translations::Given => BTreeMap::new(),
        Translations::Beside(codes) => [Lang::Ko]
            .iter()
            .map(|lang| lang.code())
            .filter(|code| codes.iter().any(|c| c == code))
            .map(|code| (kpg_lesson::translation_file(&file, code), code))
            .collect(),
    };
    if wanted.is_empty() {
        exchange.start();
        return;
    }
    let this = Rc::clone(&exchange);
    (exchange.fetch)(
        wanted.keys().cloned().collect(),
        Box::new(move |files: Files| {
            {
                let mut request = this.request.borrow_mut();
                for (path, code) in wanted {
                    if let Some(Some(text)) = files.get(&path) {
                        request.translations.insert(code.to_string(), text.clone());
                    }
                }
            }
            this.start();
        }),
    );
}

/// A `fetch` for a lesson whose files are all in its request: anything else is not there.
pub fn nothing_more() -> Fetch {
    Rc::new(|paths: Vec<String>, reply: Box<dyn FnOnce(Files)>| {
        reply(paths.into_iter().map(|p| (p, None)).collect());
    })
}

struct Exchange {
    request: RefCell<ReadRequest>,
    fetch: Fetch,
    done: RefCell<Option<Done>>,
    rounds: RefCell<usize>,
    reader: RefCell<Option<Reader>>,
}

impl Exchange {
    fn finish(&self, outcome: Result<String, Vec<String>>) {
        if let Some(reader) = self.reader.borrow_mut().take() {
            reader.stop();
        }
        if let Some(done) = self.done.borrow_mut().take() {
            done(outcome);
        }
    }

    fn ask(&self) {
        let json = serde_json::to_string(&*self.request.borrow()).unwrap_or_default();
        // Not under the borrow: an answer may come back at once and end the exchange.
        let poster = self.reader.borrow().as_ref().map(Reader::poster);
        if let Some(poster) = poster {
            poster.post(&json);
        }
    }

    fn receive(self: &Rc<Self>, json: &str) {
        // The reader listens now (its first message): ask.
        if json.is_empty() {
            self.ask();
            return;
        }
        match serde_json::from_str::<ReadReply>(json) {
            Ok(ReadReply::Prepared(bundle)) => {
                let files = LessonFiles::of(&self.request.borrow());
                let id = bundle.lessons.first().map(|l| l.english.id.clone());
                let file = files.file.clone();
                let reply = json.to_string();
                match super::register(FromElsewhere { files, reply }) {
                    Some(id) => self.finish(Ok(id)),
                    None => self.finish(Err(vec![match id {
                        Some(id) => format!(
                            "{file}: error[lesson-field]: id: \"{id}\" is one of the \
                             playground's own lessons\n  help: give the lesson an id of its own"
                        ),
                        None => "the lesson reader found no lesson".into(),
                    }])),
                }
            }
            Ok(ReadReply::Needs(paths)) => {
                let round = {
                    let mut rounds = self.rounds.borrow_mut();
                    *rounds += 1;
                    *rounds
                };
                if round > MAX_ROUNDS {
                    self.finish(Err(paths
                        .iter()
                        .map(|p| format!("{p}: the lab file could not be read"))
                        .collect()));
                    return;
                }
                let this = Rc::clone(self);
                (self.fetch)(
                    paths.clone(),
                    Box::new(move |files: Files| {
                        {
                            let mut request = this.request.borrow_mut();
                            for path in paths {
                                let text = files.get(&path).cloned().flatten();
                                request.files.insert(path, text);
                            }
                        }
                        this.ask();
                    }),
                );
            }
            Ok(ReadReply::Problems(problems)) => self.finish(Err(problems)),
            Err(e) => self.finish(Err(vec![format!("the lesson reader answered badly: {e}")])),
        }
    }

    #[cfg(target_arch = "wasm32")]
    fn start(self: &Rc<Self>) {
        use wasm_bindgen::JsCast;
        use wasm_bindgen::closure::Closure;
        let this = Rc::clone(self);
        let on_message =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
                if let Some(text) = ev.data().as_string() {
                    this.receive(&text);
                }
            });
        let options = web_sys::WorkerOptions::new();
        match web_sys::Worker::new_with_options(READER_URL, &options) {
            Ok(worker) => {
                worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                // The request goes when the reader says it listens (`receive`).
                *self.reader.borrow_mut() = Some(Reader {
                    worker,
                    _on_message: on_message,
                });
            }
            Err(_) => self.finish(Err(vec![
                "the browser refused to start the lesson reader".into(),
            ])),
        }
    }

    /// Natively there is no worker: the tests answer in this thread, as the worker would.
    #[cfg(all(not(target_arch = "wasm32"), test))]
    fn start(self: &Rc<Self>) {
        *self.reader.borrow_mut() = Some(Reader {
            exchange: Rc::downgrade(self),
        });
        self.ask();
    }

    /// The prerender reads no lesson from elsewhere.
    #[cfg(all(not(target_arch = "wasm32"), not(test)))]
    fn start(self: &Rc<Self>) {
        self.finish(Err(vec![
            "lessons from elsewhere are read in a browser".into(),
        ]));
    }
}

#[cfg(target_arch = "wasm32")]
struct Reader {
    worker: web_sys::Worker,
    _on_message: wasm_bindgen::closure::Closure<dyn FnMut(web_sys::MessageEvent)>,
}

#[cfg(target_arch = "wasm32")]
impl Reader {
    fn poster(&self) -> Poster {
        Poster(self.worker.clone())
    }

    /// Ends the worker. Its message handler is running (it is what calls this), so it is
    /// left to the page rather than dropped under itself: one small closure per lesson read.
    fn stop(self) {
        self.worker.terminate();
        std::mem::forget(self._on_message);
    }
}

#[cfg(all(not(target_arch = "wasm32"), test))]
struct Reader {
    exchange: std::rc::Weak<Exchange>,
}

#[cfg(all(not(target_arch = "wasm32"), test))]
impl Reader {
    fn poster(&self) -> Poster {
        Poster(self.exchange.clone())
    }
    fn stop(self) {}
}

#[cfg(all(not(target_arch = "wasm32"), not(test)))]
struct Reader;

#[cfg(all(not(target_arch = "wasm32"), not(test)))]
impl Reader {
    fn poster(&self) -> Poster {
        Poster
    }
    fn stop(self) {}
}

/// Sends the reader a request.
#[cfg(target_arch = "wasm32")]
struct Poster(web_sys::Worker);

#[cfg(target_arch = "wasm32")]
impl Poster {
    fn post(&self, json: &str) {
        let _ = self.0.post_message(&wasm_bindgen::JsValue::from_str(json));
    }
}

/// The tests' reader: the worker's answer, in this thread.
#[cfg(all(not(target_arch = "wasm32"), test))]
struct Poster(std::rc::Weak<Exchange>);

#[cfg(all(not(target_arch = "wasm32"), test))]
impl Poster {
    fn post(&self, json: &str) {
        let request = serde_json::from_str(json).expect("the page's request");
        let reply = serde_json::to_string(&kpg_lesson::prepared::answer(&request)).unwrap();
        if let Some(exchange) = self.0.upgrade() {
            exchange.receive(&reply);
        }
    }
}

#[cfg(all(not(target_arch = "wasm32"), not(test)))]
struct Poster;

#[cfg(all(not(target_arch = "wasm32"), not(test)))]
impl Poster {
    fn post(&self, _json: &str) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    const LESSON: &str = "id: from-a-blog\ntitle: From a blog\nlab: labs/pod.yaml\nsteps:\n  - \
                          id: one\n    title: One\n    text: \"See [two](#two).\"\n  - \
                          id: two\n    title: Two\n    text: Done.\n";

    fn request() -> ReadRequest {
        ReadRequest {
            file: "/posts/lesson.yaml".into(),
            text: LESSON.into(),
            base: Some("https://blog.example/posts/lesson.yaml".into()),
            ..ReadRequest::default()
        }
    }

    const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n";

    /// What `read` gave `done` (the tests' reader answers before `read` returns).
    fn read_now(
        request: ReadRequest,
        translations: Translations,
        fetch: Fetch,
    ) -> Result<String, Vec<String>> {
        let outcome = Rc::new(RefCell::new(None));
        let o = Rc::clone(&outcome);
        read(
            request,
            translations,
            fetch,
            Box::new(move |r| *o.borrow_mut() = Some(r)),
        );
        outcome.take().expect("the tests' reader answers at once")
    }

    /// A host that answers every path with `text(path)` and notes what it was asked for.
    fn serving(asked: &Rc<RefCell<Vec<Vec<String>>>>, text: fn(&str) -> String) -> Fetch {
        let a = Rc::clone(asked);
        Rc::new(move |paths: Vec<String>, reply: Box<dyn FnOnce(Files)>| {
            a.borrow_mut().push(paths.clone());
            reply(
                paths
                    .into_iter()
                    .map(|p| {
                        let found = Some(text(&p));
                        (p, found)
                    })
                    .collect(),
            );
        })
    }

    /// The reader asks for the lab file once; the page fetches it, asks again, and the lesson
    /// joins the page's lessons in every language (English only: no translation given).
    #[test]
    fn a_lesson_with_a_lab_file_is_fetched_read_and_registered() {
        let asked = Rc::default();
        let outcome = read_now(
            request(),
            Translations::Given,
            serving(&asked, |_| POD.into()),
        );
        assert_eq!(
            *asked.borrow(),
            vec![vec!["/posts/labs/pod.yaml".to_string()]]
        );
        assert_eq!(outcome, Ok("from-a-blog".to_string()));
        let lesson =
            super::super::find("from-a-blog", crate::base::i18n::Lang::Ko).expect("registered");
        assert_eq!(lesson.title, "From a blog");
        assert_eq!(
            lesson.untranslated, 5,
            "in English for a Korean reader, and said so"
        );
        assert!(
            super::super::step_scenario(lesson, 1)
                .unwrap()
                .contains("kind: Pod")
        );
    }

    /// A lab file the host cannot read is a located problem, not a page without a scenario.
    #[test]
    fn a_missing_lab_file_is_a_problem() {
        let Err(problems) = read_now(request(), Translations::Given, nothing_more()) else {
            panic!("a lesson without its lab read");
        };
        assert!(
            problems.iter().any(|p| p.contains("labs/pod.yaml")),
            "{problems:?}"
        );
    }

    /// An embedded lesson's translation is looked for beside it before the reader starts; a
    /// lesson read so travels in a link whole, and the link's copy reads again with nothing
    /// fetched.
    #[test]
    fn a_translation_beside_the_lesson_is_read_and_the_link_carries_everything() {
        const KO: &str = "id: from-a-blog\ntitle: 블로그에서\nsteps:\n  - id: one\n    \
                          title: 하나\n    text: \"[둘](#two)을 보세요.\"\n";
        let asked = Rc::default();
        let fetch = serving(&asked, |p| {
            if p.ends_with(".ko.yaml") { KO } else { POD }.to_string()
        });
        let outcome = read_now(
            request(),
            Translations::Beside(vec!["fr".into(), "ko".into()]),
            fetch,
        );
        assert_eq!(outcome, Ok("from-a-blog".to_string()));
        assert_eq!(
            *asked.borrow(),
            vec![
                vec!["/posts/lesson.ko.yaml".to_string()],
                vec!["/posts/labs/pod.yaml".to_string()]
            ],
            "the translation first, then the lab"
        );
        let korean = super::super::find("from-a-blog", Lang::Ko).unwrap();
        assert_eq!(korean.title, "블로그에서");
        assert!(korean.untranslated < 5, "{}", korean.untranslated);

        // What a share link of it carries reads again without asking for anything.
        let carried = super::super::from_elsewhere("from-a-blog").unwrap().files;
        assert!(carried.translations.contains_key("ko"));
        assert!(carried.labs.contains_key("/posts/labs/pod.yaml"));
        let again = read_now(
            carried.request(),
            Translations::Given,
            Rc::new(|paths: Vec<String>, _reply: Box<dyn FnOnce(Files)>| {
                panic!("a link's lesson asked for {paths:?}")
            }),
        );
        assert_eq!(again, Ok("from-a-blog".to_string()));
    }

    /// A lesson that takes a shipped lesson's id is refused, located, not opened.
    #[test]
    fn a_lesson_named_as_a_shipped_one_is_refused() {
        let mut r = request();
        r.text = r.text.replace("from-a-blog", "hello");
        let fetch = serving(&Rc::default(), |_| POD.into());
        let Err(problems) = read_now(r, Translations::Given, fetch) else {
            panic!("a lesson took a shipped lesson's id");
        };
        assert!(
            problems[0].starts_with("/posts/lesson.yaml: error[lesson-field]: id: \"hello\""),
            "{problems:?}"
        );
    }
}
