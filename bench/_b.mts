import { labelledRows } from '/work/wt/h-mailai/bench/mail';
import { printTable } from '/work/wt/h-mailai/bench/lib';
printTable(await labelledRows('dev (in-sample)', '/work/wt/h-mailai/tests/fixtures/mail-dev'));
