"""The evening's version no longer names the deal whose saving made it: the pages read the
running totals the writes keep (``DealScore.total``) instead of adding that deal to a copy."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0016_deal_score_total"),
    ]

    operations = [
        migrations.RemoveField(model_name="evening", name="added_deal"),
        migrations.RemoveField(model_name="evening", name="added_version"),
    ]
