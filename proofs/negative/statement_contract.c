/* SPDX-License-Identifier: MIT */
/*
 * statement_contract.c - an expected failure of the gate (make prove-neg-statement-contract).
 *
 * Frama-C 25 WP does not prove a statement contract (requires/ensures on a block): it warns
 * "Statement specifications not yet supported (skipped)" and proves the function without it,
 * so the false ensures below would pass unseen.  The gate must fail on the warning.
 */
int stmt_counter;

/*@ assigns stmt_counter;
    ensures stmt_counter == 1; */
void stmt_set_one(void)
{
	/*@ assigns stmt_counter;
	    ensures stmt_counter == 2; */	/* false: the block stores 1 */
	{
		stmt_counter = 1;
	}
}
