//! Tab completion for the terminal: commands, kubectl subcommands, resource types, flags,
//! object names, file names, namespaces and output formats, for the word under the cursor
//! (the end of the line).

use crate::World;
use crate::kinds::Kind;
use crate::state::State;
use crate::tokenize;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completion {
    /// Byte offset in the line where the replaced word starts.
    pub start: usize,
    /// Sorted, without duplicates.
    pub candidates: Vec<String>,
}

fn names_of(state: &State, kind: Kind) -> Vec<String> {
    let req = crate::get::Request {
        kinds: vec![kind],
        names: Vec::new(),
        namespace: String::from("default"),
        all_namespaces: true,
        selector: Default::default(),
        label_columns: Vec::new(),
        output: crate::get::Output::Name,
        show_labels: false,
        no_headers: false,
    };
    crate::get::rows(state, kind, &req)
        .into_iter()
        .map(|r| r.name)
        .collect()
}

pub fn complete(world: &dyn World, line: &str) -> Completion {
    let Ok((words, open)) = tokenize::split_partial(line) else {
        return Completion {
            start: line.len(),
            candidates: Vec::new(),
        };
    };
    let ends_in_space = open.is_none() && line.ends_with(|c: char| c.is_whitespace());
    let (done, current, start) = if ends_in_space || words.is_empty() {
        (
            words.iter().map(|w| w.text.clone()).collect::<Vec<_>>(),
            String::new(),
            line.len(),
        )
    } else {
        let last = words.last().cloned().unwrap_or(tokenize::Word {
            text: String::new(),
            start: line.len(),
        });
        (
            words[..words.len() - 1]
                .iter()
                .map(|w| w.text.clone())
                .collect(),
            last.text,
            last.start,
        )
    };
    let mut done: Vec<String> = done;
    if done.first().is_some_and(|w| w == "$") {
        done.remove(0);
    }
    let candidates: Vec<String> = match done.first().map(String::as_str) {
        None => ["kubectl", "eks-node-viewer", "ls", "help", "clear"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        Some("eks-node-viewer") => crate::viewer::FLAGS.iter().map(|s| s.to_string()).collect(),
        Some("kubectl" | "k") => kubectl(world, &done[1..], &current),
        _ => Vec::new(),
    };
    let mut candidates: Vec<String> = candidates
        .into_iter()
        .filter(|c| c.starts_with(current.as_str()))
        .collect();
    crate::order::texts(&mut candidates);
    Completion { start, candidates }
}

fn kubectl(world: &dyn World, done: &[String], current: &str) -> Vec<String> {
    let Some(sub) = done.first() else {
        return crate::SUPPORTED.iter().map(|s| s.to_string()).collect();
    };
    let previous = done.last().map(String::as_str).unwrap_or_default();
    let state = State::new(world);
    match previous {
        "-f" | "--filename" if sub != "logs" => {
            return world.files().iter().map(|(n, _)| n.clone()).collect();
        }
        "-n" | "--namespace" => return state.namespaces().into_iter().map(|(n, _)| n).collect(),
        "-o" | "--output" => {
            return ["json", "name", "wide", "yaml"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        }
        _ => {}
    }
    if current.starts_with('-') {
        return crate::args::flags_of(sub);
    }
    // Words after the subcommand that are not flags or flag values.
    let mut positional = Vec::new();
    let mut skip = false;
    for w in &done[1..] {
        if skip {
            skip = false;
            continue;
        }
        if w.starts_with('-') {
            skip = !w.contains('=')
                && [
                    "-n",
                    "--namespace",
                    "-o",
                    "--output",
                    "-l",
                    "--selector",
                    "-L",
                    "--label-columns",
                    "-f",
                    "--filename",
                    "--replicas",
                    "--image",
                    "-c",
                    "--tail",
                ]
                .contains(&w.as_str())
                && !(sub == "logs" && w == "-f");
            continue;
        }
        positional.push(w.clone());
    }
    match sub.as_str() {
        "cordon" | "uncordon" => names_of(&state, Kind::Node),
        "get" | "describe" | "delete" | "annotate" | "scale" => match positional.first() {
            None => {
                if sub == "scale" {
                    [
                        "deployment",
                        "deployments",
                        "deploy",
                        "replicaset",
                        "statefulset",
                    ]
                    .iter()
                    .map(|s| s.to_string())
                    .collect()
                } else {
                    Kind::all_names().into_iter().map(str::to_string).collect()
                }
            }
            Some(t) => match Kind::parse(t.split(',').next().unwrap_or(t)) {
                Some(k) => names_of(&state, k),
                None => Vec::new(),
            },
        },
        _ => Vec::new(),
    }
}
