//! Sorting without a copy of the standard library's sort per call site.
//!
//! Every `sort_by(|a, b| ...)` instantiates the whole stable sort (several KB of wasm) for its
//! element type and closure, and the page ships all of them. Here a call computes each
//! element's key once, sorts `(key, position)` pairs (one instantiation per key type: text or
//! number, shared by every caller) and moves the elements into that order. Ties keep their
//! order (the position breaks them), so the result is the stable sort's, byte for byte.

/// Joins the parts of a compound key (`namespace`, `name`) so that the text orders as the
/// tuple would: NUL sorts before every character a Kubernetes name can hold.
pub fn key(parts: &[&str]) -> String {
    parts.join("\u{0}")
}

/// Sorts by a text key.
pub fn by_text<T>(items: &mut Vec<T>, key: impl Fn(&T) -> String) {
    let mut keys: Vec<(String, usize)> =
        items.iter().enumerate().map(|(i, x)| (key(x), i)).collect();
    keys.sort_unstable();
    reorder(items, keys.into_iter().map(|(_, i)| i));
}

/// Sorts by a number key (a time in milliseconds, a count).
pub fn by_number<T>(items: &mut Vec<T>, key: impl Fn(&T) -> u64) {
    let mut keys: Vec<(u64, usize)> = items.iter().enumerate().map(|(i, x)| (key(x), i)).collect();
    keys.sort_unstable();
    reorder(items, keys.into_iter().map(|(_, i)| i));
}

/// Sorts text and drops repeats.
pub fn texts(items: &mut Vec<String>) {
    items.sort_unstable();
    items.dedup();
}

fn reorder<T>(items: &mut Vec<T>, order: impl Iterator<Item = usize>) {
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    for i in order {
        if let Some(x) = slots.get_mut(i).and_then(Option::take) {
            items.push(x);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_as_a_stable_sort_by_the_tuple_would() {
        let mut v = vec![
            ("b", "x", 1),
            ("a-b", "c", 2),
            ("a", "z", 3),
            ("a", "z", 4),
            ("a", "y", 5),
        ];
        let mut want = v.clone();
        want.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
        by_text(&mut v, |t| key(&[t.0, t.1]));
        assert_eq!(v, want);
        assert_eq!(
            v.iter().map(|t| t.2).collect::<Vec<_>>(),
            [5, 3, 4, 2, 1],
            "ties keep their order"
        );
        let mut n = vec![(3u64, 'a'), (1, 'b'), (3, 'c'), (0, 'd')];
        by_number(&mut n, |t| t.0);
        assert_eq!(n, [(0, 'd'), (1, 'b'), (3, 'a'), (3, 'c')]);
    }
}
