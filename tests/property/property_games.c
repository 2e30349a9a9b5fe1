/* property_games.c - TEMPORARY placeholder. */
int main(void)
{
    return 0;
}
