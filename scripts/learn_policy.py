#!/usr/bin/env python3
"""A small policy network trained in NumPy on the canasta module: it learns
to play like the heuristic (behaviour cloning over the dense action ids),
then plays deals against random play and against the heuristic in canasta.sim.

    PYTHONPATH=build/python /usr/bin/python3 scripts/learn_policy.py [--deals 400] [--epochs 8]

Steps: (1) heuristic self-play, step by step through the OpenSpiel-style
API, records the actor's observation tensor, its legal actions and the
heuristic's choice; (2) a one-hidden-layer perceptron over the observation,
its outputs masked to the legal actions, is fitted with minibatch Adam on
the cross-entropy, on 90% of the deals, and scored on the other 10%;
(3) the network, as a Python agent choosing its most likely legal action,
plays duplicate deals against random play, then against the heuristic.
"""
import argparse
import sys
import time

from script_io import fail, optional

np = optional("numpy")
canasta = optional("canasta")


def collect(game, deals, seed):
    heuristic = canasta.Agent("heuristic")
    obs, legal, chosen, deal_of = [], [], [], []
    for d in range(deals):
        state = game.new_initial_state(seed=seed, deal=d)
        step = 0
        while not state.is_terminal():
            a = heuristic.act(state, seed=d * 1000 + step)
            obs.append(state.observation_tensor())
            legal.append(state.legal_actions())
            chosen.append(a)
            deal_of.append(d)
            state.apply_action(a)
            step += 1
    return np.array(obs), legal, np.array(chosen), np.array(deal_of)


class Policy:
    """observation -> ReLU(hidden) -> one logit per action id; softmax over the legal ids."""

    def __init__(self, inputs, hidden, actions, rng):
        self.params = [rng.normal(0, np.sqrt(2 / inputs), (inputs, hidden)).astype(np.float32),
                       np.zeros(hidden, np.float32),
                       rng.normal(0, np.sqrt(1 / hidden), (hidden, actions)).astype(np.float32),
                       np.zeros(actions, np.float32)]
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0
        self.scale = np.ones(inputs, np.float32)

    def logits(self, x):
        w1, b1, w2, b2 = self.params
        h = np.maximum(x @ w1 + b1, 0)
        return h, h @ w2 + b2

    def step(self, x, mask, target, lr=1e-3):
        """One Adam step on the masked cross-entropy; returns the batch loss."""
        w1, b1, w2, b2 = self.params
        h, z = self.logits(x)
        z = np.where(mask, z, -1e9)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        n = len(x)
        loss = -np.log(p[np.arange(n), target] + 1e-12).mean()
        dz = p
        dz[np.arange(n), target] -= 1
        dz /= n
        dh = (dz @ w2.T) * (h > 0)
        grads = [x.T @ dh, dh.sum(0), h.T @ dz, dz.sum(0)]
        self.t += 1
        for i, g in enumerate(grads):
            self.m[i] = 0.9 * self.m[i] + 0.1 * g
            self.v[i] = 0.999 * self.v[i] + 0.001 * g * g
            mhat = self.m[i] / (1 - 0.9 ** self.t)
            vhat = self.v[i] / (1 - 0.999 ** self.t)
            self.params[i] -= lr * mhat / (np.sqrt(vhat) + 1e-8)
        return loss

    def choose(self, x, legal_ids):
        _, z = self.logits(x[None, :] / self.scale)
        return legal_ids[int(np.argmax(z[0, legal_ids]))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=400,
                    help="heuristic self-play deals to learn from, the last tenth held out (at least 2)")
    ap.add_argument("--epochs", type=int, default=8, help="passes over the training deals (0: the untrained network)")
    ap.add_argument("--hidden", type=int, default=256, help="units of the hidden layer (at least 1)")
    ap.add_argument("--games", type=int, default=500,
                    help="duplicate pairs of deals the network plays against each opponent, random play then the heuristic")
    args = ap.parse_args()
    if args.deals < 2:
        ap.error("--deals must be at least 2 (one to learn from, one held out)")
    if args.epochs < 0:
        ap.error("--epochs must be at least 0")
    if args.hidden < 1:
        ap.error("--hidden must be at least 1")
    if args.games < 1:
        ap.error("--games must be at least 1")
    if np is None:
        fail("numpy is missing (apt-get install python3-numpy; run /usr/bin/python3)")
    if canasta is None:
        sys.exit("learn_policy: no canasta module: build it, and run with PYTHONPATH=build/python")
    game = canasta.load_game("canasta")
    n_actions = game.num_distinct_actions()
    start = time.perf_counter()
    obs, legal, chosen, deal_of = collect(game, args.deals, seed=1)
    print(f"data: {len(obs):,} decisions of {args.deals} heuristic self-play deals, "
          f"{n_actions} action ids ({time.perf_counter() - start:.1f} s)")

    mask = np.zeros((len(obs), n_actions), bool)
    for i, ids in enumerate(legal):
        mask[i, ids] = True
    test = deal_of >= int(args.deals * 0.9)  # the last tenth of the deals is held out
    rng = np.random.default_rng(0)
    net = Policy(obs.shape[1], args.hidden, n_actions, rng)
    net.scale = np.maximum(obs[~test].max(axis=0), 1).astype(np.float32)
    x = (obs / net.scale).astype(np.float32)
    train = np.flatnonzero(~test)
    by_chance = np.mean([1 / len(ids) for ids, t in zip(legal, test) if t])

    def accuracy(rows):
        _, z = net.logits(x[rows])
        z = np.where(mask[rows], z, -np.inf)
        return float(np.mean(z.argmax(axis=1) == chosen[rows]))

    for epoch in range(1, args.epochs + 1):
        rng.shuffle(train)
        losses = [net.step(x[b], mask[b], chosen[b]) for b in np.array_split(train, max(1, len(train) // 256))]
        print(f"epoch {epoch}: loss {np.mean(losses):.3f}, held-out agreement with the heuristic "
              f"{accuracy(np.flatnonzero(test)):.1%} (a random legal action: {by_chance:.1%})")

    def learned(view):
        return net.choose(np.asarray(view.observation_tensor(), np.float32), view.legal_actions())

    for opponent in ["random", "heuristic"]:
        start = time.perf_counter()
        run = canasta.sim(side0=learned, side1=opponent, deals=args.games, seed=99)
        s = run["summary"]
        rows = len(run["rows"])
        share, margin = s["a_win_share"], s["margin"]
        print(f"the network against {opponent}, {rows} deals in duplicate: win share {share['mean']:.1%} "
              f"[{share['lo']:.1%}, {share['hi']:.1%}], margin {margin['mean']:+.0f} a deal "
              f"[{margin['lo']:+.0f}, {margin['hi']:+.0f}] ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
