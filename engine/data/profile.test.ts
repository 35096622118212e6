import { join } from 'node:path';
import { ingestFile } from './ingest';
import { analyze, DatasetProfile, NumericProfile, CategoricalProfile } from './profile';
import { dataset, expectClose, tempDir } from './test-helpers';

// Numbers below were produced once by bench/reference/profile_reference.py (pandas 3.1.1, numpy) and pasted here.
const PANDAS_REFERENCE = {
  titanic: {
    row_count: 891, duplicate_rows: 107,
    numeric: {
      "survived": {"unique": 2, "missing": 0, "min": 0.0, "max": 1.0, "mean": 0.3838383838383838, "std": 0.4865924542648575, "p25": 0.0, "p50": 0.0, "p75": 1.0, "skewness": 0.47852343829499, "kurtosis": -1.7750046710663054, "outlier_count": 0, "histogram": [549, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 342]},
      "pclass": {"unique": 3, "missing": 0, "min": 1.0, "max": 3.0, "mean": 2.308641975308642, "std": 0.836071240977049, "p25": 2.0, "p50": 3.0, "p75": 3.0, "skewness": -0.6305479068752841, "kurtosis": -1.2800149715782823, "outlier_count": 0, "histogram": [216, 0, 0, 0, 0, 0, 0, 0, 0, 0, 184, 0, 0, 0, 0, 0, 0, 0, 0, 491]},
      "age": {"unique": 88, "missing": 177, "min": 0.42, "max": 80.0, "mean": 29.69911764705882, "std": 14.526497332334042, "p25": 20.125, "p50": 28.0, "p75": 38.0, "skewness": 0.38910778230082543, "kurtosis": 0.178274153642103, "outlier_count": 11, "histogram": [40, 14, 15, 31, 79, 98, 85, 84, 73, 45, 35, 35, 29, 16, 13, 11, 4, 5, 1, 1]},
      "sibsp": {"unique": 7, "missing": 0, "min": 0.0, "max": 8.0, "mean": 0.5230078563411896, "std": 1.1027434322934317, "p25": 0.0, "p50": 0.0, "p75": 1.0, "skewness": 3.6953517271630574, "kurtosis": 17.88041972664598, "outlier_count": 46, "histogram": [608, 0, 209, 0, 0, 28, 0, 16, 0, 0, 18, 0, 5, 0, 0, 0, 0, 0, 0, 7]},
      "parch": {"unique": 7, "missing": 0, "min": 0.0, "max": 6.0, "mean": 0.38159371492704824, "std": 0.8060572211299483, "p25": 0.0, "p50": 0.0, "p75": 0.0, "skewness": 2.7491170471010906, "kurtosis": 9.778125179021647, "outlier_count": 213, "histogram": [678, 0, 0, 118, 0, 0, 80, 0, 0, 0, 5, 0, 0, 4, 0, 0, 5, 0, 0, 1]},
      "fare": {"unique": 248, "missing": 0, "min": 0.0, "max": 512.3292, "mean": 32.204207968574636, "std": 49.6934285971809, "p25": 7.9104, "p50": 14.4542, "p75": 31.0, "skewness": 4.787316519674893, "kurtosis": 33.39814088089869, "outlier_count": 116, "histogram": [562, 170, 67, 39, 15, 16, 2, 0, 9, 2, 6, 0, 0, 0, 0, 0, 0, 0, 0, 3]},
    },
    categorical: {
      "sex": {"unique": 2, "missing": 0, "top_values": {"male": 577, "female": 314}},
      "embarked": {"unique": 3, "missing": 2, "top_values": {"S": 644, "C": 168, "Q": 77}},
      "deck": {"unique": 7, "missing": 688, "top_values": {"C": 59, "B": 47, "D": 33, "E": 32, "A": 15, "F": 13, "G": 4}},
    },
    corr: {
      "survived": {"survived": 1.0, "pclass": -0.33848103596101514, "age": -0.07722109457217756, "sibsp": -0.035322498885735576, "parch": 0.08162940708348335, "fare": 0.2573065223849626},
      "pclass": {"survived": -0.33848103596101514, "pclass": 1.0, "age": -0.36922601531551735, "sibsp": 0.08308136284568686, "parch": 0.018442671310748508, "fare": -0.5494996199439076},
      "age": {"survived": -0.07722109457217756, "pclass": -0.36922601531551735, "age": 1.0, "sibsp": -0.30824675892365666, "parch": -0.1891192626320352, "fare": 0.09606669176903912},
      "sibsp": {"survived": -0.035322498885735576, "pclass": 0.08308136284568686, "age": -0.30824675892365666, "sibsp": 1.0, "parch": 0.41483769862015624, "fare": 0.159651043242161},
      "parch": {"survived": 0.08162940708348335, "pclass": 0.018442671310748508, "age": -0.1891192626320352, "sibsp": 0.41483769862015624, "parch": 1.0, "fare": 0.21622494477076448},
      "fare": {"survived": 0.2573065223849626, "pclass": -0.5494996199439076, "age": 0.09606669176903912, "sibsp": 0.159651043242161, "parch": 0.21622494477076448, "fare": 1.0},
    },
  },
  penguins: {
    row_count: 344, duplicate_rows: 0,
    numeric: {
      "bill_length_mm": {"unique": 164, "missing": 2, "min": 32.1, "max": 59.6, "mean": 43.9219298245614, "std": 5.4595837139265315, "p25": 39.225, "p50": 44.45, "p75": 48.5, "skewness": 0.05311806699132329, "kurtosis": -0.8760269663060131, "outlier_count": 0, "histogram": [2, 7, 20, 20, 30, 27, 29, 19, 17, 32, 34, 21, 27, 34, 13, 3, 3, 2, 1, 1]},
      "bill_depth_mm": {"unique": 80, "missing": 2, "min": 13.1, "max": 21.5, "mean": 17.151169590643278, "std": 1.9747931568167814, "p25": 15.6, "p50": 17.3, "p75": 18.7, "skewness": -0.14346462519436567, "kurtosis": -0.9068660903732523, "outlier_count": 0, "histogram": [6, 15, 15, 20, 17, 15, 19, 15, 16, 28, 22, 33, 24, 32, 20, 19, 11, 5, 4, 6]},
      "flipper_length_mm": {"unique": 55, "missing": 2, "min": 172.0, "max": 231.0, "mean": 200.91520467836258, "std": 14.061713679356886, "p25": 190.0, "p50": 197.0, "p75": 213.0, "skewness": 0.3456818328687697, "kurtosis": -0.9842728861838839, "outlier_count": 0, "histogram": [2, 1, 10, 12, 23, 29, 42, 37, 28, 16, 9, 6, 27, 15, 26, 16, 19, 9, 5, 10]},
      "body_mass_g": {"unique": 94, "missing": 2, "min": 2700.0, "max": 6300.0, "mean": 4201.754385964912, "std": 801.9545356980955, "p25": 3550.0, "p50": 4050.0, "p75": 4750.0, "skewness": 0.4703293304801254, "kurtosis": -0.7192218658321528, "outlier_count": 0, "histogram": [3, 12, 13, 30, 32, 39, 35, 18, 25, 17, 19, 22, 16, 12, 10, 17, 11, 5, 5, 1]},
    },
    categorical: {
      "species": {"unique": 3, "missing": 0, "top_values": {"Adelie": 152, "Gentoo": 124, "Chinstrap": 68}},
      "island": {"unique": 3, "missing": 0, "top_values": {"Biscoe": 168, "Dream": 124, "Torgersen": 52}},
      "sex": {"unique": 2, "missing": 11, "top_values": {"MALE": 168, "FEMALE": 165}},
    },
    corr: {
      "bill_length_mm": {"bill_length_mm": 1.0, "bill_depth_mm": -0.23505287035553338, "flipper_length_mm": 0.6561813407464291, "body_mass_g": 0.5951098244376295},
      "bill_depth_mm": {"bill_length_mm": -0.23505287035553338, "bill_depth_mm": 1.0, "flipper_length_mm": -0.5838512164654133, "body_mass_g": -0.47191562118606556},
      "flipper_length_mm": {"bill_length_mm": 0.6561813407464291, "bill_depth_mm": -0.5838512164654133, "flipper_length_mm": 1.0, "body_mass_g": 0.871201767306011},
      "body_mass_g": {"bill_length_mm": 0.5951098244376295, "bill_depth_mm": -0.47191562118606556, "flipper_length_mm": 0.871201767306011, "body_mass_g": 1.0},
    },
  },
  diamonds: {
    row_count: 53940, duplicate_rows: 146,
    numeric: {
      "carat": {"unique": 273, "missing": 0, "min": 0.2, "max": 5.01, "mean": 0.7979397478680015, "std": 0.47401124440541836, "p25": 0.4, "p50": 0.7, "p75": 1.04, "skewness": 1.1166459208126123, "kurtosis": 1.2566353326079263, "outlier_count": 1889, "histogram": [17179, 7976, 9243, 9383, 3750, 3379, 823, 1526, 459, 155, 27, 26, 3, 3, 2, 3, 1, 1, 0, 1]},
      "depth": {"unique": 184, "missing": 0, "min": 43.0, "max": 79.0, "mean": 61.74940489432702, "std": 1.4326213188336607, "p25": 61.0, "p50": 61.8, "p75": 62.5, "skewness": -0.08229402630188244, "kurtosis": 5.739414582329396, "outlier_count": 2545, "histogram": [3, 0, 0, 0, 2, 9, 29, 239, 2024, 10054, 31307, 9056, 922, 210, 61, 17, 3, 1, 0, 3]},
      "table": {"unique": 127, "missing": 0, "min": 43.0, "max": 95.0, "mean": 57.45718390804598, "std": 2.234490562821323, "p25": 56.0, "p50": 57.0, "p75": 59.0, "skewness": 0.7968958486695407, "kurtosis": 2.8018568600320246, "outlier_count": 605, "histogram": [2, 0, 5, 652, 9348, 28206, 13230, 1908, 500, 63, 19, 4, 1, 1, 0, 0, 0, 0, 0, 1]},
      "price": {"unique": 11602, "missing": 0, "min": 326.0, "max": 18823.0, "mean": 3932.799721913237, "std": 3989.439738146379, "p25": 950.0, "p50": 2401.0, "p75": 5324.25, "skewness": 1.6183952833835276, "kurtosis": 2.177695759248686, "outlier_count": 3540, "histogram": [18124, 7211, 5436, 3892, 4350, 3043, 2243, 1635, 1223, 1141, 908, 837, 682, 624, 523, 479, 460, 403, 381, 345]},
      "x": {"unique": 554, "missing": 0, "min": 0.0, "max": 10.74, "mean": 5.731157211716722, "std": 1.1217607467924928, "p25": 4.71, "p50": 5.7, "p75": 6.54, "skewness": 0.3786763426463917, "kurtosis": -0.6181606709137244, "outlier_count": 32, "histogram": [8, 0, 0, 0, 0, 0, 3, 2931, 13447, 7343, 7068, 7477, 8298, 3907, 1781, 1479, 166, 25, 5, 2]},
      "y": {"unique": 552, "missing": 0, "min": 0.0, "max": 58.9, "mean": 5.734525954764553, "std": 1.1421346741235554, "p25": 4.72, "p50": 5.71, "p75": 6.54, "skewness": 2.4341667164885537, "kurtosis": 91.21455715881002, "outlier_count": 29, "histogram": [7, 30507, 23367, 57, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1]},
      "z": {"unique": 375, "missing": 0, "min": 0.0, "max": 31.8, "mean": 3.538733778272154, "std": 0.7056988469499942, "p25": 2.91, "p50": 3.53, "p75": 4.04, "skewness": 1.5224225590685594, "kurtosis": 47.08661932511807, "outlier_count": 49, "histogram": [23, 19511, 31953, 2447, 4, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]},
    },
    categorical: {
      "cut": {"unique": 5, "missing": 0, "top_values": {"Ideal": 21551, "Premium": 13791, "Very Good": 12082, "Good": 4906, "Fair": 1610}},
      "color": {"unique": 7, "missing": 0, "top_values": {"G": 11292, "E": 9797, "F": 9542, "H": 8304, "D": 6775, "I": 5422, "J": 2808}},
    },
    corr: {
      "carat": {"carat": 1.0, "depth": 0.028224314279026518, "table": 0.18161754651523193, "price": 0.9215913011934687, "x": 0.9750942267264254, "y": 0.9517221990129883, "z": 0.9533873805614275},
      "depth": {"carat": 0.028224314279026518, "depth": 1.0, "table": -0.2957785215265925, "price": -0.010647404584155393, "x": -0.025289246978973112, "y": -0.029340670703632984, "z": 0.09492388239528399},
      "table": {"carat": 0.18161754651523193, "depth": -0.2957785215265925, "table": 1.0, "price": 0.1271339021217227, "x": 0.19534428095550047, "y": 0.18376014711635102, "z": 0.15092869156479616},
      "price": {"carat": 0.9215913011934687, "depth": -0.010647404584155393, "table": 0.1271339021217227, "price": 1.0, "x": 0.8844351610161171, "y": 0.8654208978641909, "z": 0.8612494438514452},
      "x": {"carat": 0.9750942267264254, "depth": -0.025289246978973112, "table": 0.19534428095550047, "price": 0.8844351610161171, "x": 1.0, "y": 0.9747014796703515, "z": 0.9707717985774582},
      "y": {"carat": 0.9517221990129883, "depth": -0.029340670703632984, "table": 0.18376014711635102, "price": 0.8654208978641909, "x": 0.9747014796703515, "y": 1.0, "z": 0.9520057161562947},
      "z": {"carat": 0.9533873805614275, "depth": 0.09492388239528399, "table": 0.15092869156479616, "price": 0.8612494438514452, "x": 0.9707717985774582, "y": 0.9520057161562947, "z": 1.0},
    },
  },
};

type Ref = (typeof PANDAS_REFERENCE)['titanic'];

describe('analyze() against pandas', () => {
  const tmp = tempDir('profile-test');
  const profiles: Record<string, DatasetProfile> = {};

  beforeAll(async () => {
    for (const name of Object.keys(PANDAS_REFERENCE)) {
      const res = await ingestFile(dataset(name), join(tmp.dir, name));
      profiles[name] = await analyze(res.parquet_path);
    }
  });
  afterAll(() => tmp.cleanup());

  for (const name of Object.keys(PANDAS_REFERENCE) as (keyof typeof PANDAS_REFERENCE)[]) {
    const ref = PANDAS_REFERENCE[name] as Ref;

    test(`${name}: row count, duplicates`, () => {
      expect(profiles[name].row_count).toBe(ref.row_count);
      expect(profiles[name].duplicate_rows).toBe(ref.duplicate_rows);
      expect(profiles[name].memory_usage).toBeGreaterThan(0);
    });

    test(`${name}: numeric statistics within 1e-9 relative`, () => {
      for (const [col, r] of Object.entries(ref.numeric as Record<string, Record<string, unknown>>)) {
        const p = profiles[name].columns[col] as NumericProfile;
        expect(p.type).toBe('numeric');
        expect(p.unique).toBe(r.unique);
        expect(p.missing).toBe(r.missing);
        expect(p.outlier_count).toBe(r.outlier_count);
        expect(p.histogram.counts).toEqual(r.histogram);
        expect(p.histogram.bin_edges).toHaveLength(21);
        for (const k of ['min', 'max', 'mean', 'std', 'skewness', 'kurtosis'] as const) {
          expectClose(p[k], r[k] as number, 1e-9, `${name}.${col}.${k}`);
        }
        for (const k of ['p25', 'p50', 'p75'] as const) {
          expectClose(p.percentiles[k], r[k] as number, 1e-9, `${name}.${col}.${k}`);
        }
        expectClose(p.iqr, (r.p75 as number) - (r.p25 as number), 1e-9, `${name}.${col}.iqr`);
      }
    });

    test(`${name}: categorical columns`, () => {
      for (const [col, r] of Object.entries(ref.categorical as Record<string, { unique: number; missing: number; top_values: Record<string, number> }>)) {
        const p = profiles[name].columns[col] as CategoricalProfile;
        expect(p.type).toBe('categorical');
        expect(p.unique).toBe(r.unique);
        expect(p.missing).toBe(r.missing);
        expectClose(p.missing_percent, (r.missing / ref.row_count) * 100, 1e-9, `${name}.${col}.missing_percent`);
        expect(p.top_values).toEqual(r.top_values);
      }
    });

    test(`${name}: Pearson correlations`, () => {
      for (const [a, row] of Object.entries(ref.corr as Record<string, Record<string, number>>)) {
        for (const [b, v] of Object.entries(row)) expectClose(profiles[name].correlations[a][b], v, 1e-9, `${name}.corr.${a}.${b}`);
      }
    });
  }

  test('datetime columns get ISO min/max and are not numeric', async () => {
    const res = await ingestFile(dataset('taxis'), join(tmp.dir, 'taxis'));
    const p = await analyze(res.parquet_path);
    const pickup = p.columns.pickup as CategoricalProfile;
    expect(pickup.dtype).toBe('datetime64');
    expect(pickup.min).toMatch(/^2019-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    expect(p.correlations.pickup).toBeUndefined();
  });
});
