//! The block itself: English Markdown for an upstream tracker, cut to fit a comment.

use std::fmt::Write as _;

use kpg_core::duration;

use crate::redact::Category;
use crate::{COMMENT_LIMIT, Findings, PLAYGROUND_VERSION};

/// What the block is written from: the findings and the link.
pub(crate) struct Facts<'a> {
    pub findings: &'a Findings,
    pub link: &'a str,
}

/// The deciding events shown at most; the newest are kept.
const EVENTS_SHOWN: usize = 60;
/// Rows of the pending pods' table.
const PENDING_ROWS: usize = 20;

/// The block, whether the link is in it, and whether it was cut to fit.
pub(crate) fn block(facts: &Facts<'_>) -> (String, bool, bool) {
    let f = facts.findings;
    let at = duration::format(f.at);
    let head = header(f, &at);
    let happened = what_happened(f, &at);
    let redaction = redaction(f);
    let open = format!(
        "**Open it:** [this scenario in Karpenter Playground]({}) (the redacted scenario below, \
         the clock at {at}; everything is in the link's fragment, which the browser never sends \
         to a server).\n\n",
        facts.link
    );
    let footer = "<sub>Made with `kpg share --issue` (or the playground's Share → Report to \
                  Karpenter). The playground simulates Karpenter; it is not Karpenter: please \
                  check the behaviour against a real cluster before filing.</sub>\n";

    let whole = scenario_section(&f.documents, f.documents.len());
    let mut out = String::new();
    let fixed = head.len() + happened.len() + redaction.len() + footer.len();
    let mut link_kept = true;
    let mut truncated = false;
    if fixed + open.len() + whole.len() <= COMMENT_LIMIT {
        out.push_str(&head);
        out.push_str(&open);
        out.push_str(&happened);
        out.push_str(&whole);
    } else {
        truncated = true;
        let open = if fixed + open.len() + 1024 <= COMMENT_LIMIT {
            open
        } else {
            link_kept = false;
            format!(
                "**Open it:** the link is {} characters, too long for a comment: run \
                 `kpg share FILE --at {at}` on the scenario below to make it.\n\n",
                facts.link.len()
            )
        };
        // As many whole documents as fit, in order, and a note saying so.
        let room = COMMENT_LIMIT.saturating_sub(fixed + open.len() + 512);
        let mut shown = f.documents.len();
        let mut section = whole;
        while shown > 0 && section.len() > room {
            shown -= 1;
            section = scenario_section(&f.documents, shown);
        }
        out.push_str(&head);
        out.push_str(&open);
        out.push_str(&happened);
        out.push_str(&section);
    }
    out.push_str(&redaction);
    out.push_str(footer);
    (out, link_kept, truncated)
}

fn header(f: &Findings, at: &str) -> String {
    let mut out = String::new();
    out.push_str("### Karpenter Playground: a scenario to reproduce\n\n");
    let version = if f.version_named {
        format!(
            "Karpenter **{}** (the scenario's `Cluster.spec.karpenter.version`)",
            f.version
        )
    } else {
        format!(
            "Karpenter **{}** (the playground's default: the scenario names no version)",
            f.version
        )
    };
    let _ = writeln!(
        out,
        "- **Simulated:** {version}{}, at **{at}** of simulated time",
        if f.auto_mode { ", EKS Auto Mode" } else { "" }
    );
    let _ = writeln!(
        out,
        "- **Playground:** Karpenter Playground (`kpg`) {PLAYGROUND_VERSION}"
    );
    let reproduces = if f.reproduces {
        "the redacted scenario below simulates to the same outcome as the original (checked)"
    } else {
        "⚠️ the redacted scenario below does **not** simulate exactly as the original did: \
         redaction or reduction changed something the engine reads"
    };
    let _ = writeln!(out, "- **Reproduces:** {reproduces}\n");
    out
}

fn what_happened(f: &Findings, at: &str) -> String {
    let o = &f.summary;
    let mut out = String::new();
    let _ = writeln!(out, "#### What happened, at {at}\n");
    let pools: Vec<String> = o
        .nodes_by_nodepool
        .iter()
        .map(|(k, v)| format!("{} {v}", md(k)))
        .collect();
    let _ = writeln!(
        out,
        "{} ({}), {} running, {} pending, {}/hour; {} disruption command(s) on {} node(s).\n",
        plural(o.nodes, "node"),
        if pools.is_empty() {
            String::from("none")
        } else {
            pools.join(", ")
        },
        plural(o.pods_running, "pod"),
        o.pods_pending,
        money(o.cost_per_hour),
        o.disruptions,
        o.nodes_disrupted
    );
    if !f.pending.is_empty() {
        out.push_str("Pods pending, and why:\n\n");
        out.push_str("| Workload | Pods | Why (Karpenter, else kube-scheduler) |\n");
        out.push_str("|---|---:|---|\n");
        for (owner, pods, message) in f.pending.iter().take(PENDING_ROWS) {
            let _ = writeln!(
                out,
                "| {} | {pods} | {} |",
                md(owner),
                message
                    .as_deref()
                    .map_or_else(|| String::from("(no reason given yet)"), md)
            );
        }
        if f.pending.len() > PENDING_ROWS {
            let _ = writeln!(
                out,
                "\n…and {} more workloads and reasons.",
                f.pending.len() - PENDING_ROWS
            );
        }
        out.push('\n');
    }
    let events = &f.events;
    if events.is_empty() {
        out.push_str("No event decided anything by then.\n\n");
    } else {
        let skipped = events.len().saturating_sub(EVENTS_SHOWN);
        let _ = writeln!(
            out,
            "The events that decided it{} (time, reason, object: message; a disruption \
             command's message is Karpenter's log line):\n",
            if skipped > 0 {
                format!(", the last {EVENTS_SHOWN} of {}", events.len())
            } else {
                String::new()
            }
        );
        let text = events[skipped..].join("\n");
        fenced(&mut out, "text", &text);
    }
    out
}

fn scenario_section(docs: &[String], shown: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<details><summary>The scenario, redacted ({})</summary>\n",
        if shown == docs.len() {
            plural(docs.len() as u32, "document")
        } else {
            format!(
                "{shown} of {} documents: too large for a comment; the link opens all of it",
                docs.len()
            )
        }
    );
    let text = kpg_share::to_stream(&docs[..shown]);
    fenced(&mut out, "yaml", &text);
    out.push_str("</details>\n\n");
    out
}

fn redaction(f: &Findings) -> String {
    let mut out = String::from("#### What was redacted\n\n");
    out.push_str(
        "Each value below was replaced by a stable placeholder: the same value by the same \
         placeholder everywhere, numbered in the values' sorted order, so references and \
         ordering still hold.\n\n",
    );
    if f.redacted.is_empty() {
        out.push_str("- No identifying value was found.\n");
    }
    for (category, n, first) in &f.redacted {
        let example = match category {
            Category::Arn => format!("arn:…:{first}"),
            _ => first.to_string(),
        };
        let _ = writeln!(
            out,
            "- {}: {n}, as `{example}`{}",
            category.describe(),
            if *n > 1 { ", …" } else { "" }
        );
    }
    if f.opaque > 0 {
        let _ = writeln!(
            out,
            "- `userData` and `context`: {}, as `redacted`",
            f.opaque
        );
    }
    for (what, n) in &f.dropped {
        if *n > 0 {
            let _ = writeln!(out, "- {what}: {n}, left out");
        }
    }
    out.push_str("- Comments: left out (the documents are printed again from what was read).\n");
    if !f.left_out.is_empty() {
        let names: Vec<String> = f.left_out.iter().map(|n| format!("`{n}`")).collect();
        let _ = writeln!(
            out,
            "- {} of {} documents left out: they change nothing in what happened ({}).",
            f.left_out.len(),
            f.original_documents,
            names.join(", ")
        );
    } else if !f.reduction_tried {
        let _ = writeln!(
            out,
            "- Every document is kept: the scenario is too large to try each one."
        );
    }
    out.push('\n');
    out
}

/// `text` in a code fence longer than any run of backticks in it.
fn fenced(out: &mut String, lang: &str, text: &str) {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    let _ = writeln!(out, "{fence}{lang}");
    out.push_str(text);
    if !text.ends_with('\n') {
        out.push('\n');
    }
    let _ = writeln!(out, "{fence}\n");
}

fn plural(n: u32, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Dollars with four decimals (micro-dollars in).
fn money(micros: i64) -> String {
    let tenths_of_cents = (micros.unsigned_abs() + 50) / 100;
    let sign = if micros < 0 { "-" } else { "" };
    format!(
        "{sign}${}.{:04}",
        tenths_of_cents / 10_000,
        tenths_of_cents % 10_000
    )
}

/// Text in a table cell: what Markdown or HTML would read escaped, one line.
fn md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '|' | '<' | '>' | '*' | '_' | '[' | ']' | '`' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_outgrow_the_backticks_inside() {
        let mut out = String::new();
        fenced(&mut out, "yaml", "a: \"````\"\n");
        assert!(out.starts_with("`````yaml\n"), "{out}");
        assert_eq!(money(266_600), "$0.2666");
        assert_eq!(md("a|b <x>"), "a\\|b \\<x\\>");
    }
}
