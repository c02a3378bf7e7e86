//! The hash Karpenter stamps on its objects for drift (`karpenter.sh/nodepool-hash`):
//! `hashstructure.Hash(v, FormatV2, &HashOptions{SlicesAsSets, IgnoreZeroValue, ZeroNil})` of
//! `github.com/mitchellh/hashstructure/v2` v2.0.2 (`hashstructure.go`), the version
//! `K@1.9.0` and `K@1.14.1` both pin in `go.mod`.
//!
//! Go walks the value with reflection; here the caller describes it as a [`Value`] tree and
//! [`hash`] walks that tree the same way. What the walk does, kind by kind:
//!
//! * The hasher is FNV-1 (`fnv.New64()`: multiply, then xor), not FNV-1a. Every step resets
//!   it, so each node's hash is FNV-1 of a few bytes.
//! * string: FNV-1 of its bytes. int64 (a `time.Duration` too): FNV-1 of its 8
//!   little-endian bytes (`binary.Write`). `int` is widened to int64 first; a bool is the
//!   int8 0 or 1 (one byte).
//! * pointers are followed (`ZeroNil`: a nil pointer hashes as the zero value of its type,
//!   though `IgnoreZeroValue` drops nil fields before that matters).
//! * map: xor over the entries of `ordered(hash(key), hash(value))`, then
//!   [`finish_unordered`]: the order of the entries never matters.
//! * slice: with `SlicesAsSets` and no `hash:"set"` tag, the xor of the element hashes and
//!   **no** finish (the walk only finishes a slice for the tag, not for the option).
//! * struct: start from the hash of the type's *name* (`reflect.Type.Name()`, no package),
//!   then for each exported field, in declaration order, that is not tagged `hash:"ignore"`
//!   and not zero (`reflect.Value.IsZero`): `h = finish(h ^ ordered(hash(field name),
//!   hash(field value)))`. The finish runs inside the loop, once per hashed field (the
//!   `continue` for a skipped field jumps over it), so the order of the fields matters. An
//!   embedded struct is a field named after its type.
//!
//! Zero, for `IgnoreZeroValue`, is Go's: `""`, `0`, a nil pointer, a **nil** map or slice
//! (an empty one that was written, such as `taints: []`, is not zero and is hashed), a struct
//! whose fields are all zero. Deciding that is the caller's job: a [`Value::Struct`] lists only
//! the fields to hash.

use alloc::vec::Vec;

/// A Go value as the walk sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value<'a> {
    Str(&'a str),
    Int64(i64),
    /// A bool, hashed as the int8 0 or 1 (EC2NodeClass has `*bool` fields; no NodePool field
    /// is a bool).
    #[cfg_attr(not(test), allow(dead_code))]
    Bool(bool),
    /// A struct's type name and its non-zero, not ignored fields in declaration order.
    Struct(&'static str, Vec<(&'static str, Value<'a>)>),
    /// A non-nil map's entries, in any order.
    Map(Vec<(Value<'a>, Value<'a>)>),
    /// A non-nil slice's elements, hashed as a set (`SlicesAsSets`).
    Slice(Vec<Value<'a>>),
}

/// Builds a [`Value::Struct`] field by field, leaving out what `IgnoreZeroValue` leaves out.
pub(crate) struct Struct<'a> {
    name: &'static str,
    fields: Vec<(&'static str, Value<'a>)>,
}

impl<'a> Struct<'a> {
    pub(crate) fn new(name: &'static str) -> Struct<'a> {
        Struct {
            name,
            fields: Vec::new(),
        }
    }

    /// A field that is never zero here (a non-nil pointer, a written list or map).
    pub(crate) fn field(mut self, name: &'static str, value: Value<'a>) -> Struct<'a> {
        self.fields.push((name, value));
        self
    }

    /// A field that is zero when `None` (a nil pointer, map or slice).
    pub(crate) fn opt(self, name: &'static str, value: Option<Value<'a>>) -> Struct<'a> {
        match value {
            Some(v) => self.field(name, v),
            None => self,
        }
    }

    /// A string field: zero when empty.
    pub(crate) fn str(self, name: &'static str, s: &'a str) -> Struct<'a> {
        self.opt(name, (!s.is_empty()).then_some(Value::Str(s)))
    }

    /// An int64 field held by value (not through a pointer): zero when 0.
    pub(crate) fn int64(self, name: &'static str, n: i64) -> Struct<'a> {
        self.opt(name, (n != 0).then_some(Value::Int64(n)))
    }

    pub(crate) fn build(self) -> Value<'a> {
        Value::Struct(self.name, self.fields)
    }

    /// Whether every field is zero: the struct itself is then zero and a parent leaves it out.
    pub(crate) fn is_zero(&self) -> bool {
        self.fields.is_empty()
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1 (64 bit) of `bytes`, from a fresh hasher.
fn fnv1(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(FNV_OFFSET, |h, &b| h.wrapping_mul(FNV_PRIME) ^ u64::from(b))
}

/// `hashUpdateOrdered`: FNV-1 of `a` then `b`, little-endian.
fn ordered(a: u64, b: u64) -> u64 {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&a.to_le_bytes());
    bytes[8..].copy_from_slice(&b.to_le_bytes());
    fnv1(&bytes)
}

/// `hashFinishUnordered`: FNV-1 of the xor so far, so that equal members of different groups
/// do not cancel out.
fn finish_unordered(a: u64) -> u64 {
    fnv1(&a.to_le_bytes())
}

/// The FormatV2 hash of `v`.
pub(crate) fn hash(v: &Value<'_>) -> u64 {
    match v {
        Value::Str(s) => fnv1(s.as_bytes()),
        Value::Int64(n) => fnv1(&n.to_le_bytes()),
        Value::Bool(b) => fnv1(&[u8::from(*b)]),
        Value::Map(entries) => finish_unordered(
            entries
                .iter()
                .fold(0, |h, (k, v)| h ^ ordered(hash(k), hash(v))),
        ),
        Value::Slice(items) => items.iter().fold(0, |h, item| h ^ hash(item)),
        Value::Struct(name, fields) => fields.iter().fold(fnv1(name.as_bytes()), |h, (f, v)| {
            finish_unordered(h ^ ordered(fnv1(f.as_bytes()), hash(v)))
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn fnv1_is_not_fnv1a() {
        // FNV-1 64 of "a" (multiply, then xor); FNV-1a would be 0xaf63dc4c8601ec8c.
        assert_eq!(fnv1(b"a"), 0xaf63_bd4c_8601_b7be);
        assert_eq!(fnv1(b""), FNV_OFFSET);
    }

    /// A v1beta1 `NodeClaimTemplate` (`K@v0.37.0:pkg/apis/v1beta1/nodepool.go`,
    /// `nodeclaim.go`): `ObjectMeta{Labels, Annotations}`, then `Spec NodeClaimSpec{Taints,
    /// StartupTaints, Requirements (ignored), Resources (ignored), Kubelet, NodeClassRef{Kind,
    /// Name, APIVersion}}`. Its hash is `karpenter.sh/nodepool-hash` at hash-version v2, the
    /// same walk with the same options as v3: these vectors check the map (labels) and the
    /// taint value, which no v1 vector found covers.
    fn v1beta1_template<'a>(
        labels: &[(&'a str, &'a str)],
        taints: &[(&'a str, &'a str, &'a str)],
        class: &'a str,
    ) -> Value<'a> {
        let mut meta = Struct::new("ObjectMeta");
        if !labels.is_empty() {
            let map = labels
                .iter()
                .map(|(k, v)| (Value::Str(k), Value::Str(v)))
                .collect();
            meta = meta.field("Labels", Value::Map(map));
        }
        let mut spec = Struct::new("NodeClaimSpec");
        if !taints.is_empty() {
            let list = taints
                .iter()
                .map(|(k, v, e)| {
                    Struct::new("Taint")
                        .str("Key", k)
                        .str("Value", v)
                        .str("Effect", e)
                        .build()
                })
                .collect();
            spec = spec.field("Taints", Value::Slice(list));
        }
        let class_ref = Struct::new("NodeClassReference").str("Name", class).build();
        let spec = spec.field("NodeClassRef", class_ref);
        let meta = (!meta.is_zero()).then(|| meta.build());
        Struct::new("NodeClaimTemplate")
            .opt("ObjectMeta", meta)
            .field("Spec", spec.build())
            .build()
    }

    /// AKS node auto-provisioning (Karpenter v1beta1 API), `kubectl describe nodepool`:
    /// VijayRod/demo `container-storage/logs/k8s-scale-app_karpenter(NAP).md`
    /// (https://github.com/VijayRod/demo), NodePools `default` and `system-surge`,
    /// `karpenter.sh/nodepool-hash-version: v2`.
    #[test]
    fn real_v1beta1_hashes_cover_maps_and_taint_values() {
        let default = v1beta1_template(&[], &[], "default");
        assert_eq!(hash(&default), 12393960163388511505);
        let surge = v1beta1_template(
            &[("kubernetes.azure.com/mode", "system")],
            &[("CriticalAddonsOnly", "true", "NoSchedule")],
            "system-surge",
        );
        assert_eq!(hash(&surge), 11366257416229128040);
    }

    /// The static hashes upstream's own test pins for `EC2NodeClass.Hash(caBundle)`
    /// (aws/karpenter-provider-aws `pkg/apis/v1/ec2nodeclass_hash_test.go` at v1.14.1):
    /// `hashstructure.Hash([]any{spec, AMIFamily(), caBundle}, ...)`, a top-level slice of three
    /// (xor, no finish). They exercise what no NodePool field does: bools (`*bool` false is
    /// not zero), int64 behind pointers (`0` too), `hash:"string"` (a Quantity's `String()`),
    /// a slice of two structs and a map of two entries.
    #[test]
    fn upstream_ec2nodeclass_static_hashes() {
        let spec = |user_data: &'static str, volume: &'static str, instance_profile: bool| {
            let ebs = Struct::new("BlockDevice")
                .field("DeleteOnTermination", Value::Bool(false))
                .field("Encrypted", Value::Bool(false))
                .field("IOPS", Value::Int64(0))
                .str("KMSKeyID", "fakeKMSKeyID")
                .str("SnapshotID", "fakeSnapshot")
                .field("Throughput", Value::Int64(0))
                .str("VolumeSize", volume)
                .str("VolumeType", "standard")
                .build();
            let bdm1 = Struct::new("BlockDeviceMapping")
                .str("DeviceName", "map-device-1")
                .field("EBS", ebs)
                .build();
            let bdm2 = Struct::new("BlockDeviceMapping")
                .str("DeviceName", "map-device-2")
                .build();
            let tags = Value::Map(vec![
                (Value::Str("keyTag-1"), Value::Str("valueTag-1")),
                (Value::Str("keyTag-2"), Value::Str("valueTag-2")),
            ]);
            let metadata = Struct::new("MetadataOptions")
                .str("HTTPEndpoint", "disabled")
                .str("HTTPProtocolIPv6", "disabled")
                .field("HTTPPutResponseHopLimit", Value::Int64(1))
                .str("HTTPTokens", "optional")
                .build();
            let (role, profile) = if instance_profile {
                ("", "test-instance-profile")
            } else {
                ("role-1", "")
            };
            let spec = Struct::new("EC2NodeClassSpec")
                .field("AssociatePublicIPAddress", Value::Bool(false))
                .str("UserData", user_data)
                .str("Role", role)
                .str("InstanceProfile", profile)
                .field("Tags", tags)
                .field("BlockDeviceMappings", Value::Slice(vec![bdm1, bdm2]))
                .field("DetailedMonitoring", Value::Bool(false))
                .field("MetadataOptions", metadata)
                .str("Context", "fake-context")
                .build();
            // No amiFamily and no alias: AMIFamily() is "Custom".
            hash(&Value::Slice(vec![
                spec,
                Value::Str("Custom"),
                Value::Str("test-ca-bundle"),
            ]))
        };
        assert_eq!(spec("userdata-test-1", "2G", false), 2608468723537941485);
        assert_eq!(spec("userdata-test-2", "2G", false), 2153344579995979450);
        assert_eq!(spec("userdata-test-1", "10G", false), 3564293065344858862);
        assert_eq!(spec("userdata-test-1", "2G", true), 3585768058063247698);
    }

    #[test]
    fn maps_and_slices_ignore_order_structs_do_not() {
        let m = |a: Vec<(&'static str, &'static str)>| {
            Value::Map(
                a.into_iter()
                    .map(|(k, v)| (Value::Str(k), Value::Str(v)))
                    .collect(),
            )
        };
        assert_eq!(
            hash(&m(vec![("a", "1"), ("b", "2")])),
            hash(&m(vec![("b", "2"), ("a", "1")]))
        );
        let s = Value::Slice(vec![Value::Str("x"), Value::Str("y")]);
        let t = Value::Slice(vec![Value::Str("y"), Value::Str("x")]);
        assert_eq!(hash(&s), hash(&t));
        let ab = Struct::new("T").str("A", "1").str("B", "2").build();
        let ba = Struct::new("T").str("B", "2").str("A", "1").build();
        assert_ne!(
            hash(&ab),
            hash(&ba),
            "fields are hashed in declaration order"
        );
        // An empty map that was written is hashed; a nil one is left out of its struct.
        let written = Struct::new("T").field("M", m(vec![])).build();
        assert_ne!(hash(&written), hash(&Struct::new("T").build()));
    }
}
