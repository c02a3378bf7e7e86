//! A command line split into words the way a POSIX shell would for the commands people paste:
//! single and double quotes, backslash escapes, and `#` comments (the seed articles paste
//! `kubectl get nodeclaims -w   # watch them go`). Pipes, redirections and command lists
//! are refused with a message rather than misread as arguments.

/// One word and where it starts in the line (for completion).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    pub start: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenError {
    /// `|`, `>`, `<`, `;`, `&&`, `&`: the character that was found.
    Operator(String),
    /// A quote opened and not closed.
    Unterminated(char),
}

impl TokenError {
    pub fn message(&self) -> String {
        match self {
            TokenError::Operator(op) if op == "|" => String::from(
                "error: pipes (|) are not supported in the playground's terminal: each command's \
                 whole output is shown; run one command at a time",
            ),
            TokenError::Operator(op) => format!(
                "error: the playground's terminal runs one command at a time: {op:?} (shell \
                 redirection or command lists) is not supported"
            ),
            TokenError::Unterminated(q) => format!("error: unterminated {q} quote"),
        }
    }
}

/// The words of `line`. A word that is only quotes (`""`) is an empty word, as in a shell.
pub fn split(line: &str) -> Result<Vec<Word>, TokenError> {
    split_partial(line).and_then(|(words, open)| match open {
        Some(q) => Err(TokenError::Unterminated(q)),
        None => Ok(words),
    })
}

/// Like [`split`], but an unterminated quote ends the last word instead of failing (the
/// line is still being typed); returns the open quote, if any.
pub fn split_partial(line: &str) -> Result<(Vec<Word>, Option<char>), TokenError> {
    let mut words = Vec::new();
    let mut current: Option<Word> = None;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = current.take() {
                    words.push(w);
                }
            }
            '#' if current.is_none() => break,
            '|' | ';' | '<' | '>' | '&' => {
                let mut op = c.to_string();
                if let Some(&(_, next)) = chars.peek()
                    && next == c
                {
                    op.push(next);
                }
                return Err(TokenError::Operator(op));
            }
            '\'' => {
                let w = current.get_or_insert_with(|| Word {
                    text: String::new(),
                    start: i,
                });
                let mut closed = false;
                for (_, q) in chars.by_ref() {
                    if q == '\'' {
                        closed = true;
                        break;
                    }
                    w.text.push(q);
                }
                if !closed {
                    let w = current.take();
                    words.extend(w);
                    return Ok((words, Some('\'')));
                }
            }
            '"' => {
                let w = current.get_or_insert_with(|| Word {
                    text: String::new(),
                    start: i,
                });
                let mut closed = false;
                while let Some((_, q)) = chars.next() {
                    match q {
                        '"' => {
                            closed = true;
                            break;
                        }
                        '\\' => match chars.peek() {
                            Some(&(_, n @ ('"' | '\\' | '$' | '`'))) => {
                                w.text.push(n);
                                chars.next();
                            }
                            _ => w.text.push('\\'),
                        },
                        other => w.text.push(other),
                    }
                }
                if !closed {
                    let w = current.take();
                    words.extend(w);
                    return Ok((words, Some('"')));
                }
            }
            '\\' => {
                let w = current.get_or_insert_with(|| Word {
                    text: String::new(),
                    start: i,
                });
                if let Some((_, n)) = chars.next() {
                    w.text.push(n);
                }
            }
            other => {
                current
                    .get_or_insert_with(|| Word {
                        text: String::new(),
                        start: i,
                    })
                    .text
                    .push(other);
            }
        }
    }
    words.extend(current);
    Ok((words, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str) -> Vec<String> {
        split(line)
            .unwrap_or_default()
            .into_iter()
            .map(|w| w.text)
            .collect()
    }

    #[test]
    fn quotes_escapes_and_comments() {
        assert_eq!(
            texts("kubectl get nodes -L a,b"),
            ["kubectl", "get", "nodes", "-L", "a,b"]
        );
        assert_eq!(
            texts("kubectl annotate node x 'note=hello world'"),
            ["kubectl", "annotate", "node", "x", "note=hello world"]
        );
        assert_eq!(texts(r#"a "b \"c\"" d\ e"#), ["a", "b \"c\"", "d e"]);
        assert_eq!(
            texts("kubectl get nodeclaims -w     # watch"),
            ["kubectl", "get", "nodeclaims", "-w"]
        );
        assert_eq!(texts("a x#y"), ["a", "x#y"]);
        assert_eq!(texts("a ''"), ["a", ""]);
    }

    #[test]
    fn operators_are_refused() {
        assert_eq!(
            split("kubectl get pods | grep x"),
            Err(TokenError::Operator("|".into()))
        );
        assert_eq!(split("a && b"), Err(TokenError::Operator("&&".into())));
        assert!(split("echo 'a|b'").is_ok());
        assert_eq!(split("a 'b"), Err(TokenError::Unterminated('\'')));
    }

    #[test]
    fn word_offsets() {
        let w = split("kubectl  get nodep").unwrap_or_default();
        assert_eq!(w.iter().map(|w| w.start).collect::<Vec<_>>(), [0, 9, 13]);
    }
}
