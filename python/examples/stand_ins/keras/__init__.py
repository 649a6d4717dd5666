"""Stand-in for Keras 3, for python/examples/test_recipes.py only (see ../README.md), computed with PyTorch."""

import random as _random

import numpy as np
import torch

__all__ = ["Model", "Sequential", "callbacks", "layers", "ops", "optimizers", "utils"]


class _Namespace:
    def __init__(self, **members):
        self.__dict__.update(members)


class _Input:
    def __init__(self, shape):
        self.shape = tuple(shape)


class _Dense:
    def __init__(self, units, activation=None):
        self.units, self.activation = units, activation


class Callback:
    """``keras.callbacks.Callback``: ``self.model``, and the hooks the recipes use."""

    def __init__(self):
        self.model = None

    def set_model(self, model):
        self.model = model

    def on_train_batch_begin(self, batch, logs=None):
        pass

    def on_train_batch_end(self, batch, logs=None):
        pass


class PyDataset:
    """``keras.utils.PyDataset``: ``__len__`` batches, ``__getitem__(index)`` returns ``(x, y)``."""

    def __init__(self, workers=1, use_multiprocessing=False, max_queue_size=10):
        pass


class _Variable:
    """What ``optimizer.iterations`` is: a number ``keras.ops.convert_to_numpy`` reads."""

    def __init__(self, value=0):
        self.value = value


class _AdamW:
    """``keras.optimizers.AdamW``: ``iterations`` counts the steps; ``build(variables)`` makes its state."""

    def __init__(self, learning_rate=0.001):
        self.learning_rate = learning_rate
        self.iterations = _Variable(0)
        self.torch = None

    def build(self, variables):
        if self.torch is None:
            self.torch = torch.optim.AdamW(variables, lr=self.learning_rate)

    @property
    def built(self):
        return self.torch is not None


class History:
    def __init__(self):
        self.history = {"loss": []}


class Model:
    """``keras.Model`` as the recipes use it: compile, fit on a PyDataset, save_weights/load_weights (.weights.h5)."""

    def __init__(self):
        self.optimizer = None
        self.net = None

    @property
    def built(self):
        return self.net is not None

    @property
    def trainable_variables(self):
        return list(self.net.parameters())

    def compile(self, optimizer, loss="mse"):
        if loss != "mse":
            raise ValueError("the stand-in knows loss='mse' only")
        self.optimizer = optimizer

    def fit(self, x, epochs=1, initial_epoch=0, callbacks=None, verbose="auto"):
        """Trains on the PyDataset ``x`` from ``initial_epoch`` to ``epochs``, one optimizer step per batch."""
        self.optimizer.build(self.trainable_variables)
        history = History()
        for callback in callbacks or []:
            callback.set_model(self)
        for _ in range(initial_epoch, epochs):
            for index in range(len(x)):
                for callback in callbacks or []:
                    callback.on_train_batch_begin(index)
                inputs, targets = x[index]
                loss = torch.nn.functional.mse_loss(self.net(_tensor(inputs)), _tensor(targets))
                self.optimizer.torch.zero_grad()
                loss.backward()
                self.optimizer.torch.step()
                self.optimizer.iterations.value += 1
                history.history["loss"].append(loss.item())
                for callback in callbacks or []:
                    callback.on_train_batch_end(index, {"loss": loss.item()})
        return history

    def save_weights(self, filepath, overwrite=True):
        """Keras 3 writes the model's and the optimizer's variables to a file whose name ends in .weights.h5."""
        if not filepath.endswith(".weights.h5"):
            raise ValueError("The filename must end in `.weights.h5`.")
        state = {"model": self.net.state_dict(), "iterations": self.optimizer.iterations.value}
        if self.optimizer.built:
            state["optimizer"] = self.optimizer.torch.state_dict()
        torch.save(state, filepath)

    def load_weights(self, filepath):
        """Reads a .weights.h5 file; a file cut short raises OSError, as h5py does."""
        try:
            state = torch.load(filepath)
        except (RuntimeError, EOFError) as error:
            raise OSError(f"Unable to open file (truncated file): {filepath}") from error
        self.net.load_state_dict(state["model"])
        self.optimizer.iterations.value = state["iterations"]
        if "optimizer" in state:
            self.optimizer.torch.load_state_dict(state["optimizer"])

    def __call__(self, inputs):
        return self.net(_tensor(inputs)).detach().numpy()


class Sequential(Model):
    """``keras.Sequential([keras.layers.Input(shape), keras.layers.Dense(units, activation=...)...])``."""

    def __init__(self, layers):
        super().__init__()
        modules, width = [], None
        for layer in layers:
            if isinstance(layer, _Input):
                width = layer.shape[-1]
                continue
            modules.append(torch.nn.Linear(width, layer.units))
            if layer.activation == "relu":
                modules.append(torch.nn.ReLU())
            width = layer.units
        self.net = torch.nn.Sequential(*modules)


def _tensor(value):
    return torch.as_tensor(np.asarray(value), dtype=torch.float32)


def _set_random_seed(seed):
    """``keras.utils.set_random_seed``: Python's, NumPy's and the backend's generators."""
    _random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


callbacks = _Namespace(Callback=Callback)
layers = _Namespace(Dense=_Dense, Input=_Input)
ops = _Namespace(convert_to_numpy=lambda value: np.asarray(value.value if isinstance(value, _Variable) else value))
optimizers = _Namespace(AdamW=_AdamW)
utils = _Namespace(PyDataset=PyDataset, set_random_seed=_set_random_seed)
