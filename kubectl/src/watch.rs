//! `kubectl get -w` and `kubectl logs -f`: what they print as the clock moves. kubectl's
//! watch prints a row each time an object changes (it is added, modified, or deleted: a
//! deleted object's last row once more), each row through its own tab writer flush, so a
//! watched row is aligned by itself and not with the header. A change of AGE alone is no
//! change of the object.

use std::collections::BTreeMap;

use crate::World;
use crate::format::tabulate;
use crate::get::{self, Request, Row};
use crate::logs;
use crate::state::State;

#[derive(Clone, Debug)]
pub struct Watch {
    inner: Inner,
}

#[derive(Clone, Debug)]
enum Inner {
    /// `header`: printed already (with the first row; an empty list prints nothing).
    Get {
        req: Request,
        rows: BTreeMap<String, Row>,
        header: bool,
    },
    Logs {
        req: logs::Request,
        printed: usize,
    },
}

fn comparable(req: &Request, row: &Row) -> Vec<String> {
    let mut cells = row.cells.clone();
    if let Some(i) = get::age_index(req, row.kind)
        && let Some(c) = cells.get_mut(i)
    {
        c.clear();
    }
    cells
}

impl Watch {
    pub fn for_get(state: &State, req: Request) -> Watch {
        let rows: BTreeMap<String, Row> = get::watched_rows(state, &req)
            .into_iter()
            .map(|r| (r.key(), r))
            .collect();
        let header = !rows.is_empty();
        Watch {
            inner: Inner::Get { req, rows, header },
        }
    }

    pub fn for_logs(state: &State, req: logs::Request) -> Watch {
        let printed = logs::lines(state, &req).len();
        Watch {
            inner: Inner::Logs { req, printed },
        }
    }

    /// The lines the command would print since the last poll (no header).
    pub fn poll(&mut self, world: &dyn World) -> String {
        let state = State::new(world);
        match &mut self.inner {
            Inner::Get { req, rows, header } => {
                let now: BTreeMap<String, Row> = get::watched_rows(&state, req)
                    .into_iter()
                    .map(|r| (r.key(), r))
                    .collect();
                let with_kind = req.kinds.len() > 1;
                let mut out = String::new();
                let print = |row: &Row, out: &mut String, header: &mut bool| {
                    let (head, mut body) =
                        get::table_cells(req, row.kind, std::slice::from_ref(row), with_kind);
                    if !*header && !req.no_headers {
                        body.insert(0, head);
                    }
                    *header = true;
                    out.push_str(&tabulate(&body));
                };
                for (key, row) in &now {
                    let changed = rows
                        .get(key)
                        .is_none_or(|old| comparable(req, old) != comparable(req, row));
                    if changed {
                        print(row, &mut out, header);
                    }
                }
                for (key, row) in rows.iter() {
                    if !now.contains_key(key) {
                        print(row, &mut out, header);
                    }
                }
                *rows = now;
                out
            }
            Inner::Logs { req, printed } => {
                let all = logs::lines(&state, req);
                let new: String = all
                    .iter()
                    .skip(*printed)
                    .map(|l| format!("{l}\n"))
                    .collect();
                *printed = all.len().max(*printed);
                new
            }
        }
    }
}
