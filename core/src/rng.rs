//! The engine's only source of randomness: a seeded SplitMix64 stream.
//!
//! Every choice Karpenter makes at random (NodeClaim name suffixes, a value for an `Exists`
//! custom label, a spot pool among equally priced ones) draws from this, so the same scenario
//! and seed always give the same report.

#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng {
            state: seed ^ 0x9E37_79B9_7F4A_7C15,
        }
    }

    /// An independent stream for one purpose, so that adding draws in one place does not
    /// shift every other random choice.
    pub fn fork(&self, salt: u64) -> Rng {
        let mut r = Rng {
            state: self.state ^ salt.wrapping_mul(0xD1B5_4A32_D192_ED03),
        };
        r.next_u64();
        r
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (0 when n is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // Lemire's multiply-shift; the tiny bias is irrelevant here and it is deterministic.
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// A Kubernetes-style random suffix of `len` characters from `bcdfghjklmnpqrstvwxz2456789`
    /// (apimachinery's `rand.String` alphabet, which avoids vowels and look-alikes).
    pub fn k8s_suffix(&mut self, len: usize) -> alloc::string::String {
        const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
        (0..len)
            .map(|_| ALPHABET[self.below(ALPHABET.len() as u64) as usize] as char)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(Rng::new(7).next_u64(), Rng::new(8).next_u64());
    }

    #[test]
    fn suffixes_use_the_kubernetes_alphabet() {
        let s = Rng::new(1).k8s_suffix(5);
        assert_eq!(s.len(), 5);
        assert!(s.chars().all(|c| "bcdfghjklmnpqrstvwxz2456789".contains(c)));
    }
}
