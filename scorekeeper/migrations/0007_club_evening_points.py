from django.db import migrations, models

import scorekeeper.models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0006_evening_tally"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="evening_points",
            field=models.BooleanField(default=False, verbose_name="evening ranking points"),
        ),
        migrations.AddField(
            model_name="club",
            name="evening_points_scale",
            field=models.JSONField(
                blank=True,
                default=scorekeeper.models.default_points_scale,
                verbose_name="points by place",
            ),
        ),
    ]
