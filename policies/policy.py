"""What every policy of every model family is (docs/design.md, "The run contract").

A policy has a ``family`` (the model it runs in, a key of
:data:`policies.registry.FAMILIES`), a ``name`` and its ``parameters()``, and it
declares whether an engine may run it compiled: ``compiled_spec(...)`` returns the
compiled engine's description of the policy, or ``None`` for the plain-Python loop.
Engines ask the policy; they never test its concrete type or read its private
attributes. A subclass of a built-in policy that overrides one of the hooks the
compiled engine would not call gets ``None`` (:func:`overrides`), so it runs on the
Python loop, hook and all.

Each family's base class (:class:`policies.slotted.SlottedPolicy` and
:class:`~policies.slotted.BuiltinPolicy`, :class:`policies.continuous.ContinuousPolicy`,
:class:`policies.preemptive.PreemptivePolicy`,
:class:`policies.nonpreemptive.NonPreemptivePolicy`) extends :class:`Policy` and fixes
the arguments of ``compiled_spec``.
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = ["Policy", "overrides", "require_family"]


class Policy:
    """Base of every policy: ``family``, ``name``, ``parameters()``, ``compiled_spec``.

    Not used directly: every policy extends it through its family's base class
    (:class:`policies.SlottedPolicy` or :class:`policies.BuiltinPolicy` for PG21,
    :class:`policies.ContinuousPolicy`, ``policies.preemptive.PreemptivePolicy``,
    :class:`policies.NonPreemptivePolicy`), which fixes ``family`` and the arguments of
    ``compiled_spec``. The constructor takes no arguments; subclasses define their own.

    Attributes
    ----------
    family : str
        The model family, a key of :data:`policies.registry.FAMILIES` (class attribute).
    name : str
        The registry name (lower-case, hyphenated).

    References
    ----------
    docs/design.md, section The run contract (Policies).

    Examples
    --------
    >>> import policies
    >>> p = policies.make_policy("bf-js")
    >>> isinstance(p, policies.Policy), p.family, p.name, p.parameters()
    (True, 'pg21-slotted', 'bf-js', {})
    >>> policies.make_policy("vqs", J=3).parameters()
    {'J': 3, 'small_jobs': 'rounded', 'hol': 'skip'}
    """

    #: the model family (a key of :data:`policies.registry.FAMILIES`)
    family: ClassVar[str] = ""
    #: registry name (lower-case, hyphenated)
    name: str = "custom"

    def parameters(self) -> dict[str, Any]:
        """The policy's parameters, for the result's record."""
        return {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def overrides(policy: object, base: type, hooks: tuple[str, ...]) -> bool:
    """Whether ``type(policy)`` redefines one of ``base``'s ``hooks`` below ``base``
    (a subclass's own hook would be skipped by a compiled engine that implements
    ``base``'s)."""
    return any(getattr(type(policy), h) is not getattr(base, h) for h in hooks)


def require_family(policy: object, family: str, example: str) -> None:
    """A ``TypeError`` unless ``policy`` is a :class:`Policy` of ``family``; ``example``
    says how to make one."""
    if not isinstance(policy, Policy) or policy.family != family:
        got = (f"a {policy.family} policy" if isinstance(policy, Policy)
               else type(policy).__name__)
        raise TypeError(f"policy must be a {family} policy ({example}), got {got}")
