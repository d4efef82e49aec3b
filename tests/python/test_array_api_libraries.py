"""Libraries written against the Array API standard run on gpukit arrays: array-api-compat names gpukit's
namespace, and scikit-learn's estimators with array_api_dispatch fit and transform gpukit arrays, giving
gpukit arrays equal to what they give for NumPy's."""

import os
import subprocess
import sys
import textwrap

import numpy
import pytest

import gpukit


def test_array_api_compat_returns_gpukit_s_namespace():
    compat = pytest.importorskip("array_api_compat")
    x = gpukit.asarray(numpy.arange(5.0))
    assert compat.is_array_api_obj(x)
    assert compat.array_namespace(x) is gpukit
    assert compat.array_namespace(x, gpukit.ones(2)) is gpukit
    assert compat.device(x) == x.device
    with pytest.raises(TypeError, match="[Mm]ultiple namespaces"):
        compat.array_namespace(x, numpy.ones(2))


# SciPy reads SCIPY_ARRAY_API when it is first imported, which this process has done already: the
# estimators run in a child process that sets it first.
ESTIMATORS = textwrap.dedent("""
    import numpy
    import gpukit
    from sklearn import config_context
    from sklearn.decomposition import PCA
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.preprocessing import MinMaxScaler, StandardScaler

    rng = numpy.random.default_rng(7)
    host = rng.standard_normal((61, 5)) * [1.0, 3.0, 0.5, 2.0, 1.5] + 0.25
    labels = (host[:, 0] + 0.3 * host[:, 2] > 0.2).astype(numpy.int64)
    x, y = gpukit.asarray(host), gpukit.asarray(labels)
    for make in (MinMaxScaler, StandardScaler, lambda: PCA(n_components=3, svd_solver="full")):
        with config_context(array_api_dispatch=True):
            on_device = make().fit_transform(x)
        assert isinstance(on_device, gpukit.ndarray), type(on_device)
        expected = make().fit_transform(host)
        # PCA's components are defined up to sign: compare magnitudes column by column
        numpy.testing.assert_allclose(numpy.abs(on_device.get()), numpy.abs(expected), rtol=1e-9, atol=1e-12)
    with config_context(array_api_dispatch=True):
        model = LinearDiscriminantAnalysis().fit(x, y)
        predicted = model.predict(x)
    assert isinstance(predicted, gpukit.ndarray)
    numpy.testing.assert_array_equal(predicted.get(), LinearDiscriminantAnalysis().fit(host, labels).predict(host))
    print("estimators ok")
""")


def test_scikit_learn_estimators_fit_gpukit_arrays():
    pytest.importorskip("sklearn")
    environment = dict(os.environ, SCIPY_ARRAY_API="1")
    result = subprocess.run([sys.executable, "-c", ESTIMATORS], env=environment, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr[-4000:]
    assert "estimators ok" in result.stdout
