"""Reinforcement-learning adapters: optional extras on top of the pure engine.

- :mod:`durak.rl.encoding` (needs ``numpy``): the fixed action encoding shared by both adapters
  (:func:`~durak.rl.encoding.action_space_size`, :func:`~durak.rl.encoding.encode`,
  :func:`~durak.rl.encoding.decode`, :func:`~durak.rl.encoding.legal_mask`), one codec per
  action kind (:func:`~durak.rl.encoding.register_codec` gives a plug-in kind ids), and the
  observation tensor built from :func:`durak.view` alone (:func:`~durak.rl.encoding.observation`,
  :func:`~durak.rl.encoding.observation_layout`).
- :mod:`durak.rl.pettingzoo_env` (extra ``rl``: ``pip install 'durak-engine[rl]'``): the
  PettingZoo AEC environment ``durak_v1``.
- :mod:`durak.rl.openspiel_game` (extra ``openspiel``:
  ``pip install 'durak-engine[openspiel]'``): the OpenSpiel game ``python_durak``, registered
  with ``pyspiel`` on import.

The adapters let one player act at a time, the one :func:`durak.next_actor` names (R13.2), and
support every preset, several-card leads (R4.2) and transfers (R9.4) included
(:func:`~durak.rl.encoding.check_supported` names what they refuse). Importing this package
imports none of the optional libraries.
"""

__all__: list[str] = []
