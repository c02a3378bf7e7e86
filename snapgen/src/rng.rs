//! The only randomness: a seeded SplitMix64 stream, and the names Kubernetes derives from it.

pub struct Rng(u64);

/// The alphabet of `k8s.io/apimachinery/pkg/util/rand.String` (no vowels, no 0/1/3).
const ALNUM: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A stream for one purpose, independent of how much another purpose drew.
    pub fn fork(&mut self, salt: u64) -> Rng {
        Rng(self.next_u64() ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    pub fn chance(&mut self, per_mille: u64) -> bool {
        self.below(1000) < per_mille
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }

    /// `rand.String(n)`: generateName suffixes, pod-template-hash-like strings.
    pub fn alnum(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| ALNUM[self.below(ALNUM.len() as u64) as usize] as char)
            .collect()
    }

    pub fn hex(&mut self, n: usize) -> String {
        const H: &[u8] = b"0123456789abcdef";
        (0..n).map(|_| H[self.below(16) as usize] as char).collect()
    }

    /// A version-4 UUID.
    pub fn uuid(&mut self) -> String {
        let a = self.next_u64();
        let b = self.next_u64();
        let a = (a & 0xffff_ffff_ffff_0fff) | 0x0000_0000_0000_4000;
        let b = (b & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000;
        format!(
            "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xffff,
            b >> 48,
            b & 0xffff_ffff_ffff
        )
    }
}
